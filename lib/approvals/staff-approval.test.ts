import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { audited } from "@/lib/audit/trail";
import { staffActions, type StaffActionState } from "@/lib/auth/staff-actions";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff, findStaffByEmail, findStaffById } from "@/lib/auth/staff-users";
import * as schema from "@/lib/db/console-schema";
import type { Role } from "@/lib/permissions";
import { auditRecordsOf, formOf, requireRole } from "@/tests/support/audit-records";
import { testDatabaseTargets } from "@/tests/support/databases";
import { fourEyesFixture } from "@/tests/support/four-eyes";
import { startProxyBank } from "@/tests/support/proxy-harness";
import type { ApprovalService } from "./service";
import { readChangeRequest, setApprovalRequired } from "./store";

// Four-eyes between people, not accounts (docs/approvals.md, "Staff accounts" and "Who may approve"): the admin's real
// staff actions and the approvals' route handlers on one console database per target. Production's four-eyes is on
// (the default), so it governs staff changes.

const bank = startProxyBank();
const key = randomBytes(32);
const idle: StaffActionState = { error: null, done: null };

describe.each(testDatabaseTargets)("four-eyes on staff accounts, on $name", (target) => {
  const fixture = fourEyesFixture(bank, key, target);
  const { harness, db, decide, putSetting, heldUserdataEdit } = fixture;
  let service: ApprovalService;
  let admin: StaffUser;
  let secondAdmin: StaffUser;
  let approver: StaffUser;
  let actor: StaffUser;
  let requestId: string;
  const actions = staffActions({
    requireUser: requireRole(() => actor),
    db: async () => db(),
    audited: (entry, perform, options) => audited(db(), entry, perform, options),
    newRequestId: () => requestId,
    changed: () => undefined,
    approvals: { required: (environment) => service.required(environment), holdStaff: (...args) => service.holdStaff(...args) },
  });
  beforeAll(() => {
    service = fixture.service();
    ({ admin, secondAdmin, approver } = fixture.staff);
  });

  /** Runs a staff action as `user`; answers what it said and the request number it was held as, if held. */
  async function asStaff(user: StaffUser, action: "createStaffUser" | "changeStaffRole", fields: Record<string, string>) {
    actor = user;
    requestId = `req_${randomUUID()}`;
    const state = await actions[action](idle, formOf(fields));
    const held = /request (\d+) at \/approvals\/\d+/.exec(state.done ?? "");
    return { state, approval: held ? Number(held[1]) : null };
  }
  const newAccount = (user: StaffUser, role: Role, name = "admin.two") =>
    asStaff(user, "createStaffUser", { email: `${name}.${randomUUID()}@bank.example`, name, role, password: "a long enough password" });

  it("creating an account that may approve is held for another admin; approved, the account names its creator", async () => {
    const { state, approval } = await newAccount(admin, "admin");
    expect(state).toEqual({ error: null, done: expect.stringMatching(/^Awaiting approval by another admin \(four-eyes\): request \d+/) });
    const row = (await readChangeRequest(db(), approval!))!;
    expect(row).toMatchObject({ kind: "staff", action: "staff.create", permission: "staff:manage", environment: "production", makerId: admin.id });
    const email = (row.payload as { email: string }).email;
    expect(await findStaffByEmail(db(), email)).toBeNull();
    // The password waits sealed, never in the clear.
    expect(JSON.stringify(row.payload)).not.toContain("a long enough password");

    expect((await decide(admin, approval!, "approve")).json).toMatchObject({ error: { code: "self_approval" } });
    // Operations holds change:approve, not staff:manage.
    expect((await decide(approver, approval!, "approve")).status).toBe(403);
    const approved = await decide(secondAdmin, approval!, "approve");
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    expect(approved.json).toMatchObject({ status: "approved", outcome: "succeeded" });
    const created = (await findStaffByEmail(db(), email))!;
    expect(created).toMatchObject({ role: "admin", name: "admin.two" });
    expect(created.passwordHash).toMatch(/^scrypt/);
    const [stored] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, created.id));
    expect(stored!.createdBy).toBe(admin.id);
    const records = await auditRecordsOf(harness.database, approved.requestId);
    expect(records.map((record) => [record.action, record.actorId, record.targetId, record.outcome]).sort()).toEqual([
      ["change.approve", secondAdmin.id, created.id, "succeeded"],
      ["staff.create", secondAdmin.id, created.id, "succeeded"],
    ]);
  });

  it("an account the maker created cannot approve the maker's request (403 sponsored_by_maker); someone else can", async () => {
    const { approval: creation } = await newAccount(admin, "admin");
    await decide(secondAdmin, creation!, "approve");
    const adminTwo = (await findStaffById(db(), (await readChangeRequest(db(), creation!))!.targetId!))!;
    try {
      const held = await putSetting(admin, { environment: "production", required: false });
      expect(held.status).toBe(202);
      const { approval } = (await held.json()) as { approval: { id: number } };
      const refused = await decide(adminTwo, approval.id, "approve");
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({
        error: { code: "sponsored_by_maker", message: expect.stringContaining(`${admin.email}, who asked for this, created your account`) },
      });
      expect(await service.required("production")).toBe(true);
      expect((await readChangeRequest(db(), approval.id))!.state).toBe("pending");
      const [record] = await auditRecordsOf(harness.database, refused.requestId);
      expect(record).toMatchObject({
        action: "change.approve",
        actorId: adminTwo.id,
        outcome: "failed",
        error: expect.stringContaining("created your account"),
      });
      expect((await decide(secondAdmin, approval.id, "approve")).status).toBe(200);
      expect(await service.required("production")).toBe(false);
    } finally {
      await service.setRequired(admin, "production", true, randomUUID());
    }
  });

  it("created directly while four-eyes is off, the account still cannot approve its creator's requests", async () => {
    // Off as a second admin's approval would leave it (that path: setting-approval.test.ts).
    await setApprovalRequired(db(), "production", false, "test");
    let adminTwo: StaffUser;
    try {
      const { state } = await newAccount(admin, "admin");
      expect(state.done).toMatch(/^Created: admin\.two/);
      adminTwo = (await findStaffByEmail(db(), state.done!.replace("Created: ", "")))!;
    } finally {
      await service.setRequired(admin, "production", true, randomUUID());
    }
    const { id } = await heldUserdataEdit();
    // The maker of this bank change is the operations maker: admin.two may approve it.
    expect((await decide(adminTwo, id, "approve")).status).toBe(200);
    const held = await putSetting(admin, { environment: "production", required: false });
    const { approval } = (await held.json()) as { approval: { id: number } };
    expect((await decide(adminTwo, approval.id, "approve")).json).toMatchObject({ error: { code: "sponsored_by_maker" } });
    await decide(admin, approval.id, "withdraw");
  });

  it("raising a role is held; approved, the role changes and names who asked; a promoted account cannot approve them", async () => {
    const viewer = await createStaff(db(), { email: `${randomUUID()}@bank.example`, name: "viewer", role: "viewer", password: null });
    const { state, approval } = await asStaff(admin, "changeStaffRole", { id: viewer.id, role: "operations" });
    expect(state.done).toMatch(/^Awaiting approval/);
    expect(await readChangeRequest(db(), approval!)).toMatchObject({
      action: "staff.role_change",
      targetId: viewer.id,
      payload: { email: viewer.email, role: "operations" },
      before: { email: viewer.email, role: "viewer" },
    });
    expect((await findStaffById(db(), viewer.id))!.role).toBe("viewer");
    expect((await decide(secondAdmin, approval!, "approve")).json).toMatchObject({ outcome: "succeeded" });
    const promoted = (await findStaffById(db(), viewer.id))!;
    expect(promoted.role).toBe("operations");
    const [stored] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, viewer.id));
    expect(stored!.roleChangedBy).toBe(admin.id);

    // A userdata edit asked for by the admin who promoted them: refused to them.
    harness.session.user = admin;
    const edit = await harness.callProxy("PATCH", `/network_transfer/${fixture.transferId()}`, {
      body: { userdata: { ticket: randomUUID() } },
      through: fixture.through(),
    });
    const editId = (edit.json as { approval: { id: number } }).approval.id;
    expect((await decide(promoted, editId, "approve")).json).toMatchObject({
      error: { code: "sponsored_by_maker", message: expect.stringContaining("last changed the role of your account") },
    });
    expect(harness.sentToBank().filter((line) => !line.startsWith("GET"))).toEqual([]);
    await decide(admin, editId, "withdraw");
  });

  it("applies at once what adds no approver: a viewer account, a lowered role", async () => {
    const { state } = await newAccount(admin, "viewer", "reader");
    expect(state.done).toMatch(/^Created: reader/);
    const operations = await createStaff(db(), { email: `${randomUUID()}@bank.example`, name: "ops", role: "operations", password: null });
    const lowered = await asStaff(admin, "changeStaffRole", { id: operations.id, role: "viewer" });
    expect(lowered.state.done).toMatch(/^Role changed/);
    expect((await findStaffById(db(), operations.id))!.role).toBe("viewer");
  });

  it("refuses (409 approval_stale) a role change whose account changed since the request", async () => {
    const operations = await createStaff(db(), { email: `${randomUUID()}@bank.example`, name: "ops", role: "operations", password: null });
    const { approval } = await asStaff(admin, "changeStaffRole", { id: operations.id, role: "admin" });
    // Meanwhile another admin lowers the role (at once): the request's "before" is no longer what is there.
    expect((await asStaff(secondAdmin, "changeStaffRole", { id: operations.id, role: "viewer" })).state.done).toMatch(/^Role changed/);
    const stale = await decide(secondAdmin, approval!, "approve");
    expect(stale.status).toBe(409);
    expect(stale.json).toEqual({ error: { code: "approval_stale", message: expect.stringContaining("changed since the request") } });
    expect((await findStaffById(db(), operations.id))!.role).toBe("viewer");
    expect((await readChangeRequest(db(), approval!))!.state).toBe("pending");
  });
});
