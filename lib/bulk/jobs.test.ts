import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "@/lib/db/console-schema";
import { bankWithTransfers, bulkJobsKit } from "@/tests/support/bulk-jobs";
import { testDatabaseTargets } from "@/tests/support/databases";
import { indexPersonApplication } from "@/tests/support/review-applications";

// Bulk jobs as the runner sends them (docs/console-actions.md, "Bulk actions"): userdata on 200 network transfers
// through a restart, retries, webhooks and review assignments. Four-eyes and refusals: ./four-eyes.test.ts; the
// routes' answers to bad input and the selection export: ./routes.test.ts.

// The demo seed has 150 network transfers; 50 more through the sandbox's control API make the 200 of the issue.
const { bank, transferIds } = bankWithTransfers(200);

describe.each(testDatabaseTargets)("bulk jobs, on $name", (target) => {
  const kit = bulkJobsKit(bank, target);
  const { staff, ask, readJob, retry, settled, startRunner, stopRunner, stopRunners, patchesOf, requestsFor, sentToBank, db, proxy } = kit;

  it("answers before reading anything, tags 200 transfers, stopped halfway by a restart, and patches each exactly once", async () => {
    const ticket = `INC-${randomUUID()}`;
    const asked = await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids: transferIds, key: "ticket", value: ticket });
    expect(asked.status, JSON.stringify(asked.json)).toBe(202);
    expect(asked.json).toMatchObject({ status: "running", total: 200, counts: { pending: 200 } });
    // The 202 did not wait for the bank: the runner reads each object just before its send.
    expect(requestsFor(transferIds)).toEqual([]);
    const jobId = asked.json.id;

    // The first process stops once half the rows are settled: the rows in flight finish, its lease is given back.
    let count = 0;
    let half!: () => void;
    const halfway = new Promise<void>((resolve) => (half = resolve));
    const first = startRunner(() => ++count === 100 && half());
    await halfway;
    await stopRunner(first);
    const between = await readJob(staff.maker, jobId);
    expect(between.json.status).toBe("running");
    expect(between.json.counts.done).toBeGreaterThanOrEqual(100);
    expect(between.json.counts.done).toBeLessThan(200);

    // Two rows as a process killed mid-send leaves them: one sent but not yet marked, one claimed but not yet read.
    const rows = schema.bulkRows;
    const [sentUnmarked] = await db()
      .update(rows)
      .set({ state: "sending" })
      .where(and(eq(rows.jobId, jobId), eq(rows.position, 0)))
      .returning();
    const [claimedUnsent] = await db()
      .update(rows)
      .set({ state: "sending", attempts: 1 })
      .where(and(eq(rows.jobId, jobId), eq(rows.position, 199), eq(rows.state, "pending")))
      .returning();
    expect(sentUnmarked?.objectId).toBe(transferIds[0]);
    expect(sentUnmarked?.seen).not.toBeNull();
    expect(claimedUnsent).toMatchObject({ objectId: transferIds[199], seen: null });

    startRunner();
    const done = await settled(staff.maker, jobId);
    await stopRunners();
    expect(done.json).toMatchObject({ status: "done", total: 200, counts: { done: 200, refused: 0, failed: 0, skipped: 0, unknown: 0 } });
    expect(done.json.rows[0]).toEqual({ id: transferIds[0], state: "done", reason: expect.stringContaining("applied before a restart") });
    expect(done.json.rows[199]).toEqual({ id: transferIds[199], state: "done", reason: null });

    // Each transfer PATCHed exactly once, and each now carries the ticket.
    const patches = patchesOf(transferIds);
    expect(patches).toHaveLength(200);
    expect(new Set(patches).size).toBe(200);
    for (const id of [transferIds[0]!, transferIds[100]!, transferIds[199]!])
      expect((await bank.direct.get_network_transfer(id)).userdata).toMatchObject({ ticket });
    // Each PATCH audited as a single change by the maker, under this job's request ids (other tests' jobs tag too).
    const records = await db()
      .select()
      .from(schema.auditRecords)
      .where(and(eq(schema.auditRecords.action, "network_transfer.userdata.update"), eq(schema.auditRecords.actorId, staff.maker.id)));
    const ofThisJob = records.filter((record) => record.requestId?.startsWith(`bulk_${jobId}_`));
    expect(ofThisJob.filter((record) => record.outcome === "succeeded")).toHaveLength(200);
  }, 120_000);

  it("reads each transfer once per row: the runner's read is the audit record's before, next to the bank's answer", async () => {
    const ids = transferIds.slice(20, 25);
    const key = `reads-${randomUUID()}`;
    const before = await Promise.all(ids.map((id) => bank.direct.get_network_transfer(id)));
    bank.recording.received.length = 0;
    const asked = await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids, key, value: "once" });
    expect(asked.status).toBe(202);
    startRunner();
    expect((await settled(staff.maker, asked.json.id)).json.counts.done).toBe(5);
    await stopRunners();
    // One GET (the runner's, before comparing) and one PATCH per row; rows run four at a time, so in no set order.
    for (const id of ids) expect(requestsFor([id])).toEqual([`GET /network_transfer/${id}`, `PATCH /network_transfer/${id}`]);

    const after = await Promise.all(ids.map((id) => bank.direct.get_network_transfer(id)));
    const records = await db()
      .select()
      .from(schema.auditRecords)
      .where(and(eq(schema.auditRecords.action, "network_transfer.userdata.update"), eq(schema.auditRecords.actorId, staff.maker.id)));
    const ofThisJob = records.filter((record) => record.requestId.startsWith(`bulk_${asked.json.id}_`));
    expect(ofThisJob).toHaveLength(5);
    for (const [index, id] of ids.entries()) {
      const record = ofThisJob.find((candidate) => candidate.targetId === id);
      expect(record).toMatchObject({ outcome: "succeeded", before: before[index], after: after[index] });
      expect(after[index]!.userdata).toMatchObject({ [key]: "once" });
    }

    // A change sent without its read (an approval sent later) still reads the state it replaces for its record.
    bank.recording.received.length = 0;
    const single = ids[0]!;
    const requestId = `single_${randomUUID()}`;
    await proxy().sendApproved(
      { environment: "sandbox", operationId: "patch_network_transfer", params: { id: single }, body: { userdata: { [key]: "again" } } },
      staff.approver,
      requestId,
    );
    expect(requestsFor([single])).toEqual([`GET /network_transfer/${single}`, `PATCH /network_transfer/${single}`]);
    const [sentAlone] = await db().select().from(schema.auditRecords).where(eq(schema.auditRecords.requestId, requestId));
    expect(sentAlone).toMatchObject({ outcome: "succeeded", before: after[0], after: await bank.direct.get_network_transfer(single) });
  });

  it("retries the rows the bank failed; one changed since its first read is skipped, one already as asked is done unsent", async () => {
    const [failing, changed, plain, untagged] = transferIds.slice(10, 14) as [string, string, string, string];
    for (const id of [failing, changed, plain]) await bank.direct.patch_network_transfer(id, { userdata: { ticket: `INC-${randomUUID()}` } });
    await bank.direct.patch_network_transfer(untagged, { userdata: { other: "kept" } });
    const ids = [failing, changed, plain, untagged];
    const asked = await ask(staff.maker, { action: "userdata.remove", resource: "network_transfer", ids, key: "ticket" });
    expect(asked.status).toBe(202);
    bank.recording.failNext("PATCH", `/network_transfer/${failing}`, 503);
    bank.recording.failNext("PATCH", `/network_transfer/${changed}`, 503);
    startRunner();
    const first = await settled(staff.maker, asked.json.id);
    expect(first.json.rows).toEqual([
      { id: failing, state: "failed", reason: expect.stringContaining("503") },
      { id: changed, state: "failed", reason: expect.stringContaining("503") },
      { id: plain, state: "done", reason: null },
      { id: untagged, state: "done", reason: expect.stringContaining("already as asked") },
    ]);
    expect(patchesOf([untagged])).toEqual([]);

    // Changed at the bank after its failed send: the retry compares it with what it was when first read.
    await bank.direct.patch_network_transfer(changed, { userdata: { ticket: "INC-other", changed: "meanwhile" } });
    bank.recording.received.length = 0;
    const retried = await retry(staff.maker, asked.json.id);
    expect(retried.status).toBe(200);
    const second = await settled(staff.maker, asked.json.id);
    await stopRunners();
    expect(second.json.counts).toMatchObject({ done: 3, skipped: 1, failed: 0 });
    expect(second.json.rows[1]).toEqual({ id: changed, state: "skipped", reason: expect.stringContaining("changed since it was selected") });
    expect(patchesOf(ids)).toEqual([`PATCH /network_transfer/${failing}`]);
    expect((await bank.direct.get_network_transfer(failing)).userdata ?? {}).not.toHaveProperty("ticket");
    expect((await bank.direct.get_network_transfer(changed)).userdata).toEqual({ ticket: "INC-other", changed: "meanwhile" });
  });

  it("disables and enables webhooks, each PATCH audited as webhook.update; a reset of one not in error is refused unsent", async () => {
    const webhooks = await Promise.all(
      [1, 2].map(() => bank.direct.create_webhook({ url: `https://hooks.example/${randomUUID()}`, event: "ach.create" })),
    );
    const ids = webhooks.map((webhook) => webhook.id);
    startRunner();
    const disabled = await ask(staff.maker, { action: "webhook.disable", resource: "webhook", ids });
    expect(disabled.status).toBe(202);
    expect((await settled(staff.maker, disabled.json.id)).json.counts.done).toBe(2);
    for (const id of ids) expect((await bank.direct.get_webhook(id)).status).toBe("disabled");
    const reset = await ask(staff.maker, { action: "webhook.reset", resource: "webhook", ids: ids.slice(0, 1) });
    const refused = await settled(staff.maker, reset.json.id);
    expect(refused.json.rows).toEqual([{ id: ids[0], state: "refused", reason: expect.stringContaining("not in error") }]);
    bank.recording.received.length = 0;
    const enabled = await ask(staff.maker, { action: "webhook.enable", resource: "webhook", ids });
    expect((await settled(staff.maker, enabled.json.id)).json.counts.done).toBe(2);
    // Rows run four at a time: each webhook is read once (its record's before is that read) and PATCHed once, in no set order.
    expect(sentToBank().sort()).toEqual(ids.flatMap((id) => [`GET /webhook/${id}`, `PATCH /webhook/${id}`]).sort());
    const records = await db().select().from(schema.auditRecords).where(eq(schema.auditRecords.targetId, ids[0]!));
    expect(records.filter((record) => record.action === "webhook.update").map((record) => record.outcome)).toEqual(["succeeded", "succeeded"]);
  });

  it("assigns applications to a reviewer and unassigns them; a case another reviewer holds is refused", async () => {
    const [free, taken] = await Promise.all([indexPersonApplication(db(), "sandbox", 2), indexPersonApplication(db(), "sandbox", 3)]);
    startRunner();
    const first = await ask(staff.otherReviewer, { action: "review.assign", resource: "review", ids: [taken], reviewer: staff.otherReviewer.email });
    expect((await settled(staff.otherReviewer, first.json.id)).json.counts.done).toBe(1);
    const unknown = await ask(staff.reviewer, { action: "review.assign", resource: "review", ids: [free], reviewer: "nobody@bank.example" });
    expect(unknown).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("reviewer") } } });
    const assigned = await ask(staff.reviewer, { action: "review.assign", resource: "review", ids: [free, taken], reviewer: staff.reviewer.email });
    expect(assigned.status).toBe(202);
    const done = await settled(staff.reviewer, assigned.json.id);
    expect(done.json.rows).toEqual([
      { id: free, state: "done", reason: null },
      { id: taken, state: "refused", reason: expect.stringContaining(staff.otherReviewer.email) },
    ]);
    const unassigned = await ask(staff.reviewer, { action: "review.unassign", resource: "review", ids: [free] });
    expect((await settled(staff.reviewer, unassigned.json.id)).json.counts.done).toBe(1);
    const records = await db().select().from(schema.auditRecords).where(eq(schema.auditRecords.targetId, free));
    expect(records.map((record) => `${record.action} ${record.outcome}`).sort()).toEqual(["review.assign succeeded", "review.unassign succeeded"]);
    expect(sentToBank()).toEqual([]);
  });
});
