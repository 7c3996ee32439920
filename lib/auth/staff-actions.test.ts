import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { audited } from "@/lib/audit/trail";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import type { Role } from "@/lib/permissions";
import { auditRecordsOf, expectedAuditRecord, formOf, Refused, requireRole } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { staffActions, type StaffActionDependencies, type StaffActionState } from "./staff-actions";
import { createStaff, findStaffById } from "./staff-users";
import type { StaffUser } from "./staff-user";

// The admin's staff server actions against a real console database and audit trail. Only the session is given (as
// `requireUser`, which refuses a role without the permission asked for, like the real one does with a 403).

const idle: StaffActionState = { error: null, done: null };

describe.each(testDatabaseTargets)("staff server actions on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let actor: StaffUser;
  let requestId: string;
  let changes: number;
  let auditDb: () => typeof database.db;

  const dependencies: StaffActionDependencies = {
    requireUser: requireRole(() => actor),
    db: async () => database.db,
    audited: (entry, perform, options) => audited(auditDb(), entry, perform, options),
    newRequestId: () => requestId,
    changed: () => {
      changes += 1;
    },
    // Four-eyes off: what it holds is tested with the approvals (lib/approvals/staff-approval.test.ts).
    approvals: {
      required: async () => false,
      holdStaff: () => Promise.reject(new Error("four-eyes is off here")),
    },
  };
  const actions = staffActions(dependencies);

  const staffMember = (role: Role = "viewer") =>
    createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: "Some One", role, password: null });
  const recordsOfThisRequest = () => auditRecordsOf(database, requestId);
  const expectedRecord = (fields: Parameters<typeof expectedAuditRecord>[1]) => expectedAuditRecord({ actor, environment: null, requestId }, fields);

  beforeEach(async () => {
    actor = await staffMember("admin");
    requestId = `req_${randomUUID()}`;
    changes = 0;
    auditDb = () => database.db;
  });

  describe("createStaffUser", () => {
    it("creates the user and records who created whom, with the user as after", async () => {
      const email = `${randomUUID()}@bank.example`;
      const result = await actions.createStaffUser(idle, formOf({ email, name: "New One", role: "operations", password: "a long enough password" }));
      expect(result).toEqual({ error: null, done: `Created: ${email}` });
      const [record] = await recordsOfThisRequest();
      const created = await findStaffById(database.db, record!.targetId!);
      expect(created).toMatchObject({ email, name: "New One", role: "operations", locked: false });
      expect(await recordsOfThisRequest()).toEqual([
        expectedRecord({ action: "staff.create", targetId: created!.id, before: null, after: created, outcome: "succeeded", error: null }),
      ]);
      expect(changes).toBe(1);
    });

    it("records a failed creation when the email is taken, and says so", async () => {
      const existing = await staffMember();
      const result = await actions.createStaffUser(idle, formOf({ email: existing.email, name: "Twin", role: "viewer", password: "" }));
      expect(result).toEqual({ error: `email: A staff user with email ${existing.email} already exists`, done: null });
      const [record] = await recordsOfThisRequest();
      expect(record).toEqual(
        expectedRecord({
          action: "staff.create",
          targetId: expect.stringMatching(/^stf_/),
          before: null,
          after: null,
          outcome: "failed",
          error: expect.stringContaining("already exists"),
        }),
      );
      expect(await findStaffById(database.db, record!.targetId!)).toBeNull();
      expect(changes).toBe(0);
    });

    it.each([
      [{ email: "not-an-email", name: "X", role: "viewer", password: "" }, "email:"],
      [{ email: "x@bank.example", name: " ", role: "viewer", password: "" }, "name:"],
      [{ email: "x@bank.example", name: "X", role: "superuser", password: "" }, "role:"],
      [{ email: "x@bank.example", name: "X", role: "viewer", password: "short" }, "password:"],
    ])("refuses bad input %j naming the field, and records nothing", async (fields, field) => {
      const result = await actions.createStaffUser(idle, formOf(fields));
      expect(result).toEqual({ error: expect.stringContaining(field), done: null });
      expect(await recordsOfThisRequest()).toEqual([]);
    });
  });

  describe("changeStaffRole", () => {
    it("changes the role and records the user before and after", async () => {
      const user = await staffMember("viewer");
      const result = await actions.changeStaffRole(idle, formOf({ id: user.id, role: "compliance" }));
      expect(result).toEqual({ error: null, done: `Role changed: ${user.email}` });
      const after = { ...user, role: "compliance" };
      expect(await findStaffById(database.db, user.id)).toEqual(after);
      expect(await recordsOfThisRequest()).toEqual([
        expectedRecord({ action: "staff.role_change", targetId: user.id, before: user, after, outcome: "succeeded", error: null }),
      ]);
    });

    it.each([
      [{ id: "stf_x", role: "root" }, "role:"],
      [{ id: "usr_1", role: "viewer" }, "id:"],
    ])("refuses bad input %j naming the field, and records nothing", async (fields, field) => {
      expect(await actions.changeStaffRole(idle, formOf(fields))).toEqual({ error: expect.stringContaining(field), done: null });
      expect(await recordsOfThisRequest()).toEqual([]);
    });
  });

  describe("setStaffLocked", () => {
    it("locks and unlocks, recording each with the user before and after", async () => {
      const user = await staffMember();
      expect(await actions.setStaffLocked(idle, formOf({ id: user.id, locked: "true" }))).toEqual({ error: null, done: `Locked: ${user.email}` });
      const locked = { ...user, locked: true };
      expect(await recordsOfThisRequest()).toEqual([
        expectedRecord({ action: "staff.lock", targetId: user.id, before: user, after: locked, outcome: "succeeded", error: null }),
      ]);
      requestId = `req_${randomUUID()}`;
      expect(await actions.setStaffLocked(idle, formOf({ id: user.id, locked: "false" }))).toEqual({ error: null, done: `Unlocked: ${user.email}` });
      expect(await recordsOfThisRequest()).toEqual([
        expectedRecord({ action: "staff.unlock", targetId: user.id, before: locked, after: user, outcome: "succeeded", error: null }),
      ]);
    });

    it("refuses a lock state other than true or false", async () => {
      const user = await staffMember();
      expect(await actions.setStaffLocked(idle, formOf({ id: user.id, locked: "yes" }))).toEqual({
        error: "locked: expected true or false",
        done: null,
      });
      expect(await findStaffById(database.db, user.id)).toEqual(user);
    });
  });

  describe("removeStaffUser", () => {
    it("removes the user and records them as before, with nothing after", async () => {
      const user = await staffMember("operations");
      expect(await actions.removeStaffUser(idle, formOf({ id: user.id }))).toEqual({ error: null, done: `Removed: ${user.email}` });
      expect(await findStaffById(database.db, user.id)).toBeNull();
      expect(await recordsOfThisRequest()).toEqual([
        expectedRecord({ action: "staff.remove", targetId: user.id, before: user, after: null, outcome: "succeeded", error: null }),
      ]);
    });

    it("answers an unknown id by name and records nothing", async () => {
      expect(await actions.removeStaffUser(idle, formOf({ id: "stf_nobody" }))).toEqual({ error: "id: no staff user stf_nobody", done: null });
      expect(await recordsOfThisRequest()).toEqual([]);
    });
  });

  // Every action, by the rules every one of them follows.
  const everyAction = [
    { name: "changeStaffRole", run: (id: string) => actions.changeStaffRole(idle, formOf({ id, role: "admin" })) },
    { name: "setStaffLocked", run: (id: string) => actions.setStaffLocked(idle, formOf({ id, locked: "true" })) },
    { name: "removeStaffUser", run: (id: string) => actions.removeStaffUser(idle, formOf({ id })) },
  ];

  describe.each(everyAction)("$name", ({ run }) => {
    it.each(["operations", "compliance", "viewer"] as const)("is refused to %s: nothing changes, nothing is recorded", async (role) => {
      actor = await staffMember(role);
      const user = await staffMember();
      await expect(run(user.id)).rejects.toThrow(Refused);
      expect(await findStaffById(database.db, user.id)).toEqual(user);
      expect(await recordsOfThisRequest()).toEqual([]);
    });

    it("refuses the admin's own account", async () => {
      expect(await run(actor.id)).toEqual({ error: "You cannot change your own account here; ask another admin.", done: null });
      expect(await findStaffById(database.db, actor.id)).toEqual(actor);
      expect(await recordsOfThisRequest()).toEqual([]);
    });

    it("changes nothing when its audit record cannot be written", async () => {
      const user = await staffMember();
      const broken = connectDatabase(database.pool.options.connectionString!, schema);
      await broken.close();
      auditDb = () => broken.db;
      await expect(run(user.id)).rejects.toThrow();
      expect(await findStaffById(database.db, user.id)).toEqual(user);
      expect(changes).toBe(0);
    });
  });

  it("createStaffUser is refused to a role without staff:manage", async () => {
    actor = await staffMember("compliance");
    await expect(actions.createStaffUser(idle, formOf({ email: "x@bank.example", name: "X", role: "admin", password: "" }))).rejects.toThrow(Refused);
    expect(await recordsOfThisRequest()).toEqual([]);
  });
});
