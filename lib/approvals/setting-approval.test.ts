import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { StaffUser } from "@/lib/auth/staff-user";
import * as schema from "@/lib/db/console-schema";
import { auditRecordsOf } from "@/tests/support/audit-records";
import { testDatabaseTargets } from "@/tests/support/databases";
import { fourEyesFixture } from "@/tests/support/four-eyes";
import { startProxyBank } from "@/tests/support/proxy-harness";
import type { ApprovalService } from "./service";
import { readChangeRequest } from "./store";

// The four-eyes setting (docs/approvals.md, "The setting"): admins switch it per environment, audited; switching it
// off in production is itself held for a second admin.

const bank = startProxyBank();
const key = randomBytes(32);

describe.each(testDatabaseTargets)("four-eyes on the setting itself, on $name", (target) => {
  const fixture = fourEyesFixture(bank, key, target);
  const { harness, db, through, decide, putSetting, transferId, heldUserdataEdit } = fixture;
  const { session, callProxy } = harness;
  let service: ApprovalService;
  let maker: StaffUser;
  let approver: StaffUser;
  let admin: StaffUser;
  let secondAdmin: StaffUser;
  beforeAll(() => {
    service = fixture.service();
    ({ maker, approver, admin, secondAdmin } = fixture.staff);
  });

  it("the setting switches per environment (approvals:configure only) and is audited", async () => {
    expect((await putSetting(approver, { environment: "sandbox", required: true })).status).toBe(403);
    expect((await putSetting(admin, { environment: "staging", required: true })).status).toBe(400);
    const on = await putSetting(admin, { environment: "sandbox", required: true });
    expect(on.status).toBe(200);
    expect(await service.required("sandbox")).toBe(true);
    session.environment = "sandbox";
    session.user = maker;
    expect((await callProxy("PATCH", `/network_transfer/${transferId()}`, { body: { userdata: { held: true } }, through: through() })).status).toBe(
      202,
    );
    expect((await putSetting(admin, { environment: "sandbox", required: false })).status).toBe(200);
    expect(await service.required("sandbox")).toBe(false);
    const [record] = await auditRecordsOf(harness.database, on.headers.get("x-request-id"));
    expect(record).toMatchObject({
      action: "approvals.setting",
      actorId: admin.id,
      targetId: "sandbox",
      before: { required: false },
      after: { required: true },
    });
  });

  it("switching four-eyes off in production is held for a second admin: the maker cannot approve it, another admin can", async () => {
    const put = (user: StaffUser, required: boolean) => putSetting(user, { environment: "production", required });
    try {
      const held = await put(admin, false);
      expect(held.status).toBe(202);
      const { approval } = (await held.json()) as { approval: { id: number; url: string } };
      expect(held.headers.get("location")).toBe(approval.url);
      expect(await service.required("production")).toBe(true);
      expect(await readChangeRequest(db(), approval.id)).toMatchObject({
        kind: "setting",
        action: "approvals.setting",
        permission: "approvals:configure",
        targetId: "production",
        payload: { required: false },
        before: { required: true },
        makerId: admin.id,
      });
      // Still on: a change made meanwhile is held.
      await heldUserdataEdit();

      expect((await decide(admin, approval.id, "approve")).status).toBe(403);
      // An operations user holds change:approve but not approvals:configure.
      expect((await decide(approver, approval.id, "approve")).status).toBe(403);
      expect(await service.required("production")).toBe(true);

      const approved = await decide(secondAdmin, approval.id, "approve");
      expect(approved.status, JSON.stringify(approved.json)).toBe(200);
      expect(approved.json).toMatchObject({ status: "approved", outcome: "succeeded" });
      expect(await service.required("production")).toBe(false);
      const records = await auditRecordsOf(harness.database, approved.requestId);
      expect(records.map((record) => [record.action, record.actorId, record.outcome]).sort()).toEqual([
        ["approvals.setting", secondAdmin.id, "succeeded"],
        ["change.approve", secondAdmin.id, "succeeded"],
      ]);
      expect(records.find((record) => record.action === "approvals.setting")).toMatchObject({
        before: { required: true },
        after: { required: false },
      });
      const [setting] = await db().select().from(schema.changeApprovalSettings).where(eq(schema.changeApprovalSettings.environment, "production"));
      expect(setting!.updatedBy).toBe(`${admin.email} (approved by ${secondAdmin.email})`);

      // Switching it back on applies at once, by one admin.
      expect((await put(admin, true)).status).toBe(200);
      expect(await service.required("production")).toBe(true);
    } finally {
      await service.setRequired(admin, "production", true, randomUUID());
    }
  });
});
