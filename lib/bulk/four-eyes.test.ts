import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readChangeRequest } from "@/lib/approvals/store";
import { updateStaff } from "@/lib/auth/staff-users";
import * as schema from "@/lib/db/console-schema";
import { bankWithTransfers, bulkJobsKit } from "@/tests/support/bulk-jobs";
import { testDatabaseTargets } from "@/tests/support/databases";

// Who may have a bulk action sent (docs/console-actions.md, "Bulk actions"): four-eyes holds a bank bulk action as
// one change request, sent once after approval; a role without the permission is refused before anything is read or
// sent, at the request or, when it lost the permission since, at each row.

const { bank, transferIds } = bankWithTransfers(60);

describe.each(testDatabaseTargets)("bulk four-eyes and refusals, on $name", (target) => {
  const kit = bulkJobsKit(bank, target);
  const { staff, session, ask, settled, startRunner, stopRunners, patchesOf, requestsFor, sentToBank, db, approvals } = kit;

  it("under four-eyes in production is ONE change request for the whole set, sent once after approval", async () => {
    session.environment = "production";
    const ids = transferIds.slice(30, 40);
    const value = `approved-${randomUUID()}`;
    startRunner();
    const asked = await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids, key: "review", value });
    expect(asked.status).toBe(202);
    expect(asked.json).toMatchObject({ status: "awaiting_approval", changeRequest: { id: expect.any(Number) } });
    const approvalId = asked.json.changeRequest!.id;
    const request = (await readChangeRequest(db(), approvalId))!;
    expect(request).toMatchObject({ kind: "bulk", action: "bulk.userdata.set", permission: "bank:userdata:write", targetId: asked.json.id });
    expect(request.payload).toEqual({ action: "userdata.set", resource: "network_transfer", key: "review", value, ids });
    // The approver is shown every object as it was when asked: the one path that reads them before the 202.
    expect((request.before as Array<{ id: string; updated_at: unknown }>).map((row) => row.id)).toEqual(ids);
    expect((request.before as Array<{ updated_at: unknown }>).every((row) => typeof row.updated_at === "string")).toBe(true);
    expect(await db().select().from(schema.changeRequests).where(eq(schema.changeRequests.targetId, asked.json.id))).toHaveLength(1);
    expect(patchesOf(ids)).toEqual([]);

    // The maker cannot approve it; the approver can, once: then every row is sent, as the approver.
    await expect(approvals().approve(staff.maker, approvalId, null, randomUUID())).rejects.toMatchObject({ status: 403 });
    const approved = await approvals().approve(staff.approver, approvalId, null, randomUUID());
    expect(approved).toMatchObject({ status: "approved", outcome: "succeeded" });
    const done = await settled(staff.maker, asked.json.id);
    await expect(approvals().approve(staff.approver, approvalId, null, randomUUID())).rejects.toMatchObject({ status: 409 });
    await stopRunners();
    expect(done.json.counts.done).toBe(10);
    expect(patchesOf(ids)).toHaveLength(10);
    const records = await db().select().from(schema.auditRecords).where(eq(schema.auditRecords.targetId, ids[0]!));
    const approversChange = records.filter((record) => record.action === "network_transfer.userdata.update" && record.actorId === staff.approver.id);
    expect(approversChange).toMatchObject([{ outcome: "succeeded" }]);
  });

  it("skips a transfer changed while its request waited for approval, and sends the others", async () => {
    session.environment = "production";
    const [changed, kept] = transferIds.slice(42, 44) as [string, string];
    const value = `approved-${randomUUID()}`;
    const asked = await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids: [changed, kept], key: "review", value });
    expect(asked.json.status).toBe("awaiting_approval");
    await bank.direct.patch_network_transfer(changed, { userdata: { changed: value } });
    startRunner();
    await approvals().approve(staff.approver, asked.json.changeRequest!.id, null, randomUUID());
    const done = await settled(staff.maker, asked.json.id);
    expect(done.json.rows).toEqual([
      { id: changed, state: "skipped", reason: expect.stringContaining("changed since it was selected") },
      { id: kept, state: "done", reason: null },
    ]);
    expect(patchesOf([changed])).toEqual([]);
    expect((await bank.direct.get_network_transfer(changed)).userdata).toEqual({ changed: value });
  });

  it("refuses a role without the permission before anything is read or sent", async () => {
    const refused = await ask(staff.viewer, {
      action: "userdata.set",
      resource: "network_transfer",
      ids: transferIds.slice(0, 3),
      key: "k",
      value: 1,
    });
    expect(refused.status).toBe(403);
    expect(sentToBank()).toEqual([]);
    expect(await db().select().from(schema.bulkJobs).where(eq(schema.bulkJobs.makerId, staff.viewer.id))).toEqual([]);
  });

  it("refuses every row, reading and sending nothing, when the account lost the permission before its job ran", async () => {
    const ids = transferIds.slice(20, 25);
    const asked = await ask(staff.demoted, { action: "userdata.set", resource: "network_transfer", ids, key: "k", value: 1 });
    expect(asked.status).toBe(202);
    await updateStaff(db(), staff.demoted.id, { role: "viewer" });
    startRunner();
    const done = await settled(staff.maker, asked.json.id);
    await stopRunners();
    expect(done.json.counts.refused).toBe(5);
    expect(done.json.rows[0]!.reason).toContain("needs bank:userdata:write");
    expect(requestsFor(ids)).toEqual([]);
  });
});
