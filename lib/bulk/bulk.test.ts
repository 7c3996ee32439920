import { randomUUID } from "node:crypto";
import { eq, and } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { bankProxyResolver, type BankProxy } from "@/lib/api/bank-proxy";
import { createApiRoute, type RouteDefinition } from "@/lib/api/route";
import { approvalService, type ApprovalService } from "@/lib/approvals/service";
import { readChangeRequest } from "@/lib/approvals/store";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff, findStaffByEmail, findStaffById, updateStaff } from "@/lib/auth/staff-users";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { testDatabaseTargets } from "@/tests/support/databases";
import { csvRecords } from "@/tests/support/parse-csv";
import { indexPersonApplication } from "@/tests/support/review-applications";
import { bankKey, proxyHarness, startProxyBank } from "@/tests/support/proxy-harness";
import { readUntil } from "@/tests/support/sandbox-bank";
import type { BulkSendDependencies } from "./actions";
import type { BulkJobView } from "./codes";
import { selectionExportRoute } from "./export";
import { bulkRoutes } from "./routes";
import { startBulkRunner, type BulkRunner } from "./runner";
import { bulkService, type BulkService } from "./service";

// Bulk actions (docs/console-actions.md, "Bulk actions") against the real sandbox bank behind the recording hop, which
// shows every request the console sent, and a real console database on every target. The routes are called through
// the one route wrapper; only who is signed in is given. A runner is started and stopped by each test, as a console
// process would start and stop one.

const bank = startProxyBank();
const silent = createLogger({ level: "silent" });
let transferIds: string[] = [];

beforeAll(async () => {
  // The demo seed has 150 network transfers; 50 more through the sandbox's control API make the 200 of the issue.
  const auth = `Basic ${Buffer.from(`${bankKey.id}:${bankKey.secret}`).toString("base64")}`;
  for (let created = 0; created < 50; created++) {
    const answer = await fetch(`${bank.recording.url}/sandbox/network_transfer`, {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ amount: "12.00" }),
    });
    expect(answer.status).toBe(201);
  }
  // Read directly (its page_next names the recording hop, so the cursor is carried over by hand).
  const first = await bank.direct.list_network_transfer({ page_size: 100 });
  const cursor = new URL(first.page_next!).searchParams.get("page_cursor")!;
  const second = await bank.direct.list_network_transfer({ page_size: 100, page_cursor: cursor });
  transferIds = [...first.data, ...second.data].map((row) => row.id);
  expect(transferIds).toHaveLength(200);
}, 120_000);

describe.each(testDatabaseTargets)("bulk actions, on $name", (target) => {
  const harness = proxyHarness(bank, target);
  const { session, sentToBank } = harness;
  const db = () => harness.database.db;
  const staff = {} as Record<"maker" | "approver" | "viewer" | "demoted" | "reviewer" | "otherReviewer", StaffUser>;
  let proxy: BankProxy;
  let approvals: ApprovalService;
  let service: BulkService;
  const runners: BulkRunner[] = [];

  const sending = (): BulkSendDependencies => ({
    db: async () => db(),
    bankClient: harness.dependencies().bankClient,
    sendBankChange: (change, user, requestId) => proxy.sendApproved(change, user, requestId),
    audited: harness.dependencies().audited,
  });
  /** A console process's runner; `onRowSettled` lets a test stop it halfway. */
  function startRunner(onRowSettled?: () => void) {
    const runner = startBulkRunner({ ...sending(), findUser: (id) => findStaffById(db(), id), log: silent, pollMs: 20, onRowSettled });
    runners.push(runner);
    return runner;
  }

  beforeAll(async () => {
    const key = Buffer.alloc(32, 7);
    approvals = approvalService({
      db: async () => db(),
      audited: harness.dependencies().audited,
      recordAuditEvent: harness.dependencies().recordAuditEvent,
      expiryMs: () => 3_600_000,
      encryptionKey: () => key,
      sendBank: (change, user, requestId) => proxy.sendApproved(change, user, requestId),
      bankBefore: (change) => proxy.heldBeforeNow(change),
      applyCredentials: async () => null,
      describeConnection: async () => null,
      startBulk: (jobId, approver) => service.startApproved(jobId, approver),
    });
    proxy = bankProxyResolver({ ...harness.dependencies(), approvals });
    service = bulkService({
      ...sending(),
      activeEnvironment: async () => session.environment,
      findUserByEmail: (email) => findStaffByEmail(db(), email),
      approvals,
      wakeRunner: () => runners.forEach((runner) => runner.wake()),
    });
    const member = (role: StaffUser["role"]) => createStaff(db(), { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
    [staff.maker, staff.approver, staff.viewer, staff.demoted, staff.reviewer, staff.otherReviewer] = await Promise.all([
      member("operations"),
      member("operations"),
      member("viewer"),
      member("operations"),
      member("compliance"),
      member("compliance"),
    ]);
  });

  const route = createApiRoute({ currentUser: async () => session.user, log: silent });
  const routes = bulkRoutes(() => service);

  async function call(user: StaffUser | null, definition: RouteDefinition, path: string, body?: unknown, params: Record<string, string> = {}) {
    session.user = user;
    const method = body === undefined && !path.endsWith("/retry") ? "GET" : "POST";
    const request = new Request(`http://console.test${path}`, {
      method,
      headers: { origin: "http://console.test", "content-type": "application/json" },
      body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
    });
    const response = await route(definition)(request, { params: Promise.resolve(params) });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as BulkJobView & { error?: { code: string; message: string } } };
  }
  const ask = (user: StaffUser | null, body: unknown) => call(user, routes.create, "/api/bulk", body);
  const readJob = (user: StaffUser, id: string) => call(user, routes.read, `/api/bulk/${id}`, undefined, { id });
  const settled = (user: StaffUser, id: string) =>
    readUntil(
      () => readJob(user, id),
      (answer) => answer.json.status === "done",
      60_000,
    );
  const patchesOf = (ids: string[]) => sentToBank().filter((line) => ids.some((id) => line === `PATCH /network_transfer/${id}`));
  async function stopRunners() {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  }

  afterEach(stopRunners);

  it("tags 200 transfers, stopped halfway by a restart, and patches each transfer exactly once", async () => {
    const ticket = `INC-${randomUUID()}`;
    const asked = await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids: transferIds, key: "ticket", value: ticket });
    expect(asked.status, JSON.stringify(asked.json)).toBe(202);
    expect(asked.json).toMatchObject({ status: "running", total: 200, counts: { pending: 200 } });
    const jobId = asked.json.id;

    // The first process stops once half the rows are settled: the rows in flight finish, its lease is given back.
    let count = 0;
    let half!: () => void;
    const halfway = new Promise<void>((resolve) => (half = resolve));
    const first = startRunner(() => ++count === 100 && half());
    await halfway;
    await first.stop();
    runners.splice(runners.indexOf(first), 1);
    const between = await readJob(staff.maker, jobId);
    expect(between.json.status).toBe("running");
    expect(between.json.counts.done).toBeGreaterThanOrEqual(100);
    expect(between.json.counts.done).toBeLessThan(200);

    // Two rows as a process killed mid-send leaves them: one sent but not yet marked, one claimed but not yet sent.
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
    expect(claimedUnsent?.objectId).toBe(transferIds[199]);

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

  it("skips a transfer changed since it was selected, and retries a row the bank failed", async () => {
    const [changed, failing, plain] = transferIds.slice(10, 13) as [string, string, string];
    const asked = await ask(staff.maker, { action: "userdata.remove", resource: "network_transfer", ids: [changed, failing, plain], key: "ticket" });
    expect(asked.status).toBe(202);
    await bank.direct.patch_network_transfer(changed, { userdata: { ticket: "INC-other", changed: "meanwhile" } });
    bank.recording.failNext("PATCH", `/network_transfer/${failing}`, 503);
    startRunner();
    const first = await settled(staff.maker, asked.json.id);
    expect(first.json.rows).toEqual([
      { id: changed, state: "skipped", reason: expect.stringContaining("changed since it was selected") },
      { id: failing, state: "failed", reason: expect.stringContaining("503") },
      { id: plain, state: "done", reason: null },
    ]);
    expect(patchesOf([changed])).toEqual([]);

    const retried = await call(staff.maker, routes.retry, `/api/bulk/${asked.json.id}/retry`, undefined, { id: asked.json.id });
    expect(retried.status).toBe(200);
    const second = await settled(staff.maker, asked.json.id);
    await stopRunners();
    expect(second.json.counts).toMatchObject({ done: 2, skipped: 1 });
    expect(patchesOf([plain])).toHaveLength(1);
    expect((await bank.direct.get_network_transfer(failing)).userdata ?? {}).not.toHaveProperty("ticket");
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

  it("refuses every row, sending nothing, when the account lost the permission before its job ran", async () => {
    const ids = transferIds.slice(20, 25);
    const asked = await ask(staff.demoted, { action: "userdata.set", resource: "network_transfer", ids, key: "k", value: 1 });
    expect(asked.status).toBe(202);
    await updateStaff(db(), staff.demoted.id, { role: "viewer" });
    startRunner();
    const done = await settled(staff.maker, asked.json.id);
    await stopRunners();
    expect(done.json.counts.refused).toBe(5);
    expect(done.json.rows[0]!.reason).toContain("needs bank:userdata:write");
    expect(patchesOf(ids)).toEqual([]);
  });

  it("under four-eyes in production is ONE change request for the whole set, sent once after approval", async () => {
    session.environment = "production";
    const ids = transferIds.slice(30, 40);
    startRunner();
    const asked = await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids, key: "review", value: "approved-bulk" });
    expect(asked.status).toBe(202);
    expect(asked.json).toMatchObject({ status: "awaiting_approval", changeRequest: { id: expect.any(Number) } });
    const approvalId = asked.json.changeRequest!.id;
    const request = (await readChangeRequest(db(), approvalId))!;
    expect(request).toMatchObject({ kind: "bulk", action: "bulk.userdata.set", permission: "bank:userdata:write", targetId: asked.json.id });
    expect(request.payload).toEqual({ action: "userdata.set", resource: "network_transfer", key: "review", value: "approved-bulk", ids });
    expect((request.before as Array<{ id: string }>).map((row) => row.id)).toEqual(ids);
    expect(await db().select().from(schema.changeRequests).where(eq(schema.changeRequests.targetId, asked.json.id))).toHaveLength(1);
    expect(patchesOf(ids)).toEqual([]);

    // The maker cannot approve it; the approver can, once: then every row is sent, as the approver.
    await expect(approvals.approve(staff.maker, approvalId, null, randomUUID())).rejects.toMatchObject({ status: 403 });
    const approved = await approvals.approve(staff.approver, approvalId, null, randomUUID());
    expect(approved).toMatchObject({ status: "approved", outcome: "succeeded" });
    const done = await settled(staff.maker, asked.json.id);
    await expect(approvals.approve(staff.approver, approvalId, null, randomUUID())).rejects.toMatchObject({ status: 409 });
    await stopRunners();
    expect(done.json.counts.done).toBe(10);
    expect(patchesOf(ids)).toHaveLength(10);
    const records = await db().select().from(schema.auditRecords).where(eq(schema.auditRecords.targetId, ids[0]!));
    const approversChange = records.filter((record) => record.action === "network_transfer.userdata.update" && record.actorId === staff.approver.id);
    expect(approversChange).toMatchObject([{ outcome: "succeeded" }]);
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
    // Rows run four at a time: each webhook is PATCHed once, in no set order.
    expect(
      sentToBank()
        .filter((line) => line.startsWith("PATCH"))
        .sort(),
    ).toEqual(ids.map((id) => `PATCH /webhook/${id}`).sort());
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

  it("exports the selected rows as CSV in the order selected, masked, under one export audit record", async () => {
    const ids = [transferIds[5]!, transferIds[2]!, "nt_not_at_the_bank"];
    await bank.direct.patch_network_transfer(ids[0]!, { userdata: { note: "not-for-a-viewer" } });
    const exporter = selectionExportRoute({ ...harness.dependencies(), audited: harness.dependencies().audited });
    session.user = staff.viewer;
    const response = await route(exporter)(
      new Request("http://console.test/api/bulk/export", {
        method: "POST",
        headers: { origin: "http://console.test", "content-type": "application/json" },
        body: JSON.stringify({ resource: "network_transfer", ids }),
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const text = await response.text();
    const { records } = csvRecords(text);
    expect(records.map((record) => record.id)).toEqual(ids.slice(0, 2));
    expect(records[0]!.userdata).toContain("masked");
    expect(text).not.toContain("not-for-a-viewer");
    const [record] = await harness.database.db
      .select()
      .from(schema.auditRecords)
      .where(eq(schema.auditRecords.requestId, response.headers.get("x-request-id")!));
    expect(record).toMatchObject({ action: "network_transfer.export", actorId: staff.viewer.id, outcome: "succeeded", after: { rows: 2 } });
    expect(record!.before).toMatchObject({ ids, source: "selection", revealed: false });
  });

  it("answers 401 signed out, 403 without the permission, 400 for an empty selection, 501 rows, an unknown action or resource", async () => {
    const body = { action: "webhook.disable", resource: "webhook", ids: ["webhook_1"] };
    expect((await ask(null, body)).status).toBe(401);
    expect((await ask(staff.viewer, body)).status).toBe(403);
    const empty = await ask(staff.maker, { ...body, ids: [] });
    expect(empty).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("at least one") } } });
    const tooMany = await ask(staff.maker, { ...body, ids: Array.from({ length: 501 }, (_, index) => `webhook_${index}`) });
    expect(tooMany).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("at most 500") } } });
    expect((await ask(staff.maker, { ...body, action: "webhook.explode" })).status).toBe(400);
    const wrongResource = await ask(staff.maker, { ...body, resource: "ach" });
    expect(wrongResource).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("acts on webhook") } } });
    expect((await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids: ["x"] })).status).toBe(400);
    expect(sentToBank()).toEqual([]);
    expect((await readJob(staff.viewer, randomUUID())).status).toBe(404);
    expect((await call(staff.maker, routes.read, "/api/bulk/nope", undefined, { id: "nope" })).status).toBe(400);
  });
});
