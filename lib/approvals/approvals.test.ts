import { randomBytes, randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createSession } from "@/lib/auth/sessions";
import type { StaffUser } from "@/lib/auth/staff-user";
import * as schema from "@/lib/db/console-schema";
import { auditRecordsOf } from "@/tests/support/audit-records";
import { testDatabaseTargets } from "@/tests/support/databases";
import { fourEyesFixture } from "@/tests/support/four-eyes";
import { startProxyBank } from "@/tests/support/proxy-harness";
import { findSessionUser } from "@/tests/support/sessions";
import { secretShown } from "./codes";
import { readChangeRequest } from "./store";

// Four-eyes on bank changes (docs/approvals.md) against the real sandbox bank behind the recording hop and a real
// console database on every target: the proxy holds a change, the approvals' route handlers decide it, and the hop
// shows what reached the bank and how often. Staff users and their sessions are real rows; only "who is signed in" is
// given. Credentials and the setting itself: credentials-approval.test.ts, setting-approval.test.ts.

const bank = startProxyBank();
const key = randomBytes(32);

describe.each(testDatabaseTargets)("four-eyes on bank changes, on $name", (target) => {
  const fixture = fourEyesFixture(bank, key, target);
  const { harness, db, state, through, decide, transferId, heldUserdataEdit } = fixture;
  const { session, callProxy, sentToBank } = harness;
  let maker: StaffUser;
  let approver: StaffUser;
  let secondApprover: StaffUser;
  let compliance: StaffUser;
  beforeAll(() => {
    ({ maker, approver, secondApprover, compliance } = fixture.staff);
  });

  it("holds a production userdata edit: 202 with the request, nothing PATCHed at the bank, the request audited", async () => {
    const current = await bank.direct.get_network_transfer(transferId());
    const userdata = { ticket: randomUUID(), reviewed: true };
    session.user = maker;
    const response = await callProxy("PATCH", `/network_transfer/${transferId()}`, { body: { userdata }, through: through() });
    expect(response.status).toBe(202);
    expect(response.json).toEqual({
      approval: { id: expect.any(Number), status: "pending", expiresAt: expect.any(String), url: expect.stringMatching(/^\/approvals\/\d+$/) },
    });
    // The bank was read (what the edit replaces) and not changed.
    expect(sentToBank()).toEqual([`GET /network_transfer/${transferId()}`]);
    const id = (response.json as { approval: { id: number } }).approval.id;
    const row = (await readChangeRequest(db(), id))!;
    expect(row).toMatchObject({
      environment: "production",
      kind: "bank",
      action: "network_transfer.userdata.update",
      permission: "bank:userdata:write",
      method: "PATCH",
      path: `/network_transfer/${transferId()}`,
      targetId: transferId(),
      payload: { userdata },
      before: { userdata: current.userdata ?? null },
      state: "pending",
      makerId: maker.id,
    });
    expect(row.expiresAt.getTime() - row.requestedAt.getTime()).toBeGreaterThan(3_590_000);
    const [record] = await auditRecordsOf(harness.database, response.requestId);
    expect(record).toMatchObject({
      action: "change.request",
      actorId: maker.id,
      targetId: transferId(),
      outcome: "succeeded",
      after: { approval: id },
    });
  });

  it("sends at once in the sandbox, where four-eyes is off by default", async () => {
    session.environment = "sandbox";
    const response = await callProxy("PATCH", `/network_transfer/${transferId()}`, { body: { userdata: { sandbox: true } }, through: through() });
    expect(response.status).toBe(200);
    expect(sentToBank()).toEqual([`GET /network_transfer/${transferId()}`, `PATCH /network_transfer/${transferId()}`]);
  });

  it("refuses the maker's own approval (403 self_approval): nothing sent, still pending, the refusal audited", async () => {
    const { id } = await heldUserdataEdit();
    const answer = await decide(maker, id, "approve");
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({ error: { code: "self_approval", message: expect.stringContaining("four-eyes") } });
    expect(sentToBank()).toEqual([]);
    expect((await readChangeRequest(db(), id))!.state).toBe("pending");
    const [record] = await auditRecordsOf(harness.database, answer.requestId);
    expect(record).toMatchObject({ action: "change.approve", actorId: maker.id, outcome: "failed", error: expect.stringContaining("four-eyes") });
  });

  it("refuses the maker under a second session of the same user", async () => {
    const { id } = await heldUserdataEdit();
    const [first, second] = await Promise.all(
      [1, 2].map(() => createSession(db(), { userId: maker.id, maxAgeMs: 3_600_000, userAgent: "another browser", address: null })),
    );
    const firstUser = (await findSessionUser(db(), first!.id))!;
    const secondUser = (await findSessionUser(db(), second!.id))!;
    expect(first!.id).not.toBe(second!.id);
    for (const user of [firstUser, secondUser]) {
      const answer = await decide(user, id, "approve");
      expect(answer.status).toBe(403);
      expect((answer.json as { error: { code: string } }).error.code).toBe("self_approval");
    }
    // The database refuses it too, whatever the code does: a CHECK on the table.
    await expect(
      db()
        .update(schema.changeRequests)
        .set({ state: "approved", decidedById: maker.id, decidedByEmail: maker.email, decidedByRole: "operations", decidedAt: new Date() })
        .where(eq(schema.changeRequests.id, id)),
    ).rejects.toThrow();
    expect(sentToBank()).toEqual([]);
  });

  it("refuses a role without change:approve (403 before anything is read or recorded)", async () => {
    const { id } = await heldUserdataEdit();
    const refused = await decide(compliance, id, "approve");
    expect(refused.status).toBe(403);
    expect((refused.json as { error: { code: string } }).error.code).toBe("forbidden");
    expect(await auditRecordsOf(harness.database, refused.requestId)).toEqual([]);
    expect(sentToBank()).toEqual([]);
  });

  it("refuses an expired request (409 approval_expired) and never sends it", async () => {
    state.expiryMs = 0;
    const { id } = await heldUserdataEdit();
    const answer = await decide(approver, id, "approve");
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: { code: "approval_expired", message: expect.stringContaining("expired") } });
    expect(sentToBank()).toEqual([]);
    const row = (await readChangeRequest(db(), id))!;
    expect(row.state).toBe("pending");
    expect(row.decidedById).toBeNull();
  });

  it("approved by a second person: sent once, the bank's answer recorded on the request, both people in the trail", async () => {
    const { id, userdata } = await heldUserdataEdit();
    const answer = await decide(approver, id, "approve", { note: "checked with the ticket" });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      id,
      status: "approved",
      outcome: "succeeded",
      maker: { id: maker.id },
      decidedBy: { id: approver.id, email: approver.email },
      decisionNote: "checked with the ticket",
      result: { userdata },
    });
    // Read twice: whether the userdata is still what the request replaced (approval_stale), then the audit's "before".
    expect(sentToBank()).toEqual([
      `GET /network_transfer/${transferId()}`,
      `GET /network_transfer/${transferId()}`,
      `PATCH /network_transfer/${transferId()}`,
    ]);
    expect((await bank.direct.get_network_transfer(transferId())).userdata).toEqual(userdata);
    const records = await auditRecordsOf(harness.database, answer.requestId);
    expect(records.map((record) => [record.action, record.actorId, record.outcome])).toEqual([
      ["network_transfer.userdata.update", approver.id, "succeeded"],
      ["change.approve", approver.id, "succeeded"],
    ]);
    expect(records[1]!.before).toMatchObject({ approval: id, requestedBy: { id: maker.id, email: maker.email } });
  });

  it("refuses (409 approval_stale) a userdata edit whose transfer's userdata changed since the request: nothing sent, still pending", async () => {
    const { id } = await heldUserdataEdit();
    // Someone changes the userdata at the bank after the request: approving would overwrite it.
    const newer = { ticket: `newer-${randomUUID()}` };
    await bank.direct.patch_network_transfer(transferId(), { userdata: newer });
    bank.recording.received.length = 0;
    const answer = await decide(approver, id, "approve");
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({
      error: { code: "approval_stale", message: expect.stringMatching(/changed since the request.*It must be asked again/) },
    });
    expect(sentToBank()).toEqual([`GET /network_transfer/${transferId()}`]);
    expect((await bank.direct.get_network_transfer(transferId())).userdata).toEqual(newer);
    expect((await readChangeRequest(db(), id))!.state).toBe("pending");
    const [record] = await auditRecordsOf(harness.database, answer.requestId);
    expect(record).toMatchObject({
      action: "change.approve",
      actorId: approver.id,
      outcome: "failed",
      error: expect.stringContaining("changed since"),
    });
  });

  it("two approvers at once: exactly one sends, the other is told it is already approved", async () => {
    const { id } = await heldUserdataEdit();
    const answers = await Promise.all([decide(approver, id, "approve"), decide(secondApprover, id, "approve")]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const lost = answers.find((answer) => answer.status === 409)!;
    expect((lost.json as { error: { code: string } }).error.code).toBe("approval_decided");
    expect(sentToBank().filter((line) => line.startsWith("PATCH"))).toEqual([`PATCH /network_transfer/${transferId()}`]);
    // A third try after the fact: still once.
    expect((await decide(secondApprover, id, "approve")).status).toBe(409);
    expect(sentToBank().filter((line) => line.startsWith("PATCH"))).toHaveLength(1);
  });

  it("the maker withdraws: only the maker may, and a withdrawn request cannot be approved", async () => {
    const { id } = await heldUserdataEdit();
    const notMaker = await decide(approver, id, "withdraw");
    expect(notMaker.status).toBe(403);
    expect((notMaker.json as { error: { code: string } }).error.code).toBe("not_maker");
    const withdrawn = await decide(maker, id, "withdraw");
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.json).toMatchObject({ status: "withdrawn", decidedBy: { id: maker.id } });
    const late = await decide(approver, id, "approve");
    expect(late.status).toBe(409);
    expect((late.json as { error: { message: string } }).error.message).toContain("withdrawn");
    expect(sentToBank()).toEqual([]);
  });

  it("rejection needs a note, is recorded, sends nothing, and cannot be approved afterwards", async () => {
    const { id } = await heldUserdataEdit();
    const noNote = await decide(approver, id, "reject", {});
    expect(noNote.status).toBe(400);
    expect((noNote.json as { error: { message: string } }).error.message).toContain("note");
    const rejected = await decide(approver, id, "reject", { note: "wrong ticket" });
    expect(rejected.status).toBe(200);
    expect(rejected.json).toMatchObject({ status: "rejected", decidedBy: { id: approver.id }, decisionNote: "wrong ticket", outcome: null });
    expect((await decide(secondApprover, id, "approve")).status).toBe(409);
    expect(sentToBank()).toEqual([]);
  });

  it("records the bank's failure on the approved request", async () => {
    const { id } = await heldUserdataEdit();
    bank.recording.failNext("PATCH", `/network_transfer/${transferId()}`, 503);
    const answer = await decide(approver, id, "approve");
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: "approved", outcome: "failed", error: expect.any(String), result: null });
    const row = (await readChangeRequest(db(), id))!;
    expect(row.outcome).toBe("failed");
    expect(row.sentAt).not.toBeNull();
  });

  it("keeps a request: no delete, and what was asked never changes", async () => {
    const { id } = await heldUserdataEdit();
    await expect(db().delete(schema.changeRequests).where(eq(schema.changeRequests.id, id))).rejects.toThrow();
    await expect(
      db()
        .update(schema.changeRequests)
        .set({ payload: { userdata: { evil: true } } })
        .where(eq(schema.changeRequests.id, id)),
    ).rejects.toThrow();
    await expect(db().execute(sql`TRUNCATE console.change_requests`)).rejects.toThrow();
  });

  it("a webhook's basic_secret waits sealed, is never shown, and reaches the bank only on approval", async () => {
    const secret = `hook-secret-${randomUUID()}`;
    const body = { url: `https://hooks.example/${randomUUID()}`, event: "ach.update", basic_user: "console", basic_secret: secret };
    session.user = maker;
    const held = await callProxy("POST", "/webhook", { body, through: through() });
    expect(held.status).toBe(202);
    expect(sentToBank()).toEqual([]);
    const id = (held.json as { approval: { id: number } }).approval.id;
    const [stored] = await db()
      .execute(sql`SELECT row_to_json(r)::text AS text FROM console.change_requests r WHERE id = ${id}`)
      .then((result) => result.rows as Array<{ text: string }>);
    expect(stored!.text).not.toContain(secret);
    const approved = await decide(approver, id, "approve");
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ outcome: "succeeded", payload: { url: body.url, basic_secret: secretShown } });
    expect(JSON.stringify(approved.json)).not.toContain(secret);
    const sent = bank.recording.received.find((request) => request.method === "POST");
    expect(JSON.parse(sent!.body)).toMatchObject({ basic_secret: secret });
  });

  it("holds a webhook delete and disable the same way", async () => {
    const hook = await bank.direct.create_webhook({ url: `https://hooks.example/${randomUUID()}`, event: "ach.update" });
    session.user = maker;
    const disable = await callProxy("PATCH", `/webhook/${hook.id}`, { body: { status: "disabled" }, through: through() });
    const remove = await callProxy("DELETE", `/webhook/${hook.id}`, { through: through() });
    expect([disable.status, remove.status]).toEqual([202, 202]);
    expect(sentToBank().filter((line) => !line.startsWith("GET"))).toEqual([]);
    expect((await bank.direct.get_webhook(hook.id)).status).toBe("enabled");
    const deleteId = (remove.json as { approval: { id: number } }).approval.id;
    expect((await readChangeRequest(db(), deleteId))!.before).toMatchObject({ id: hook.id, url: hook.url });
    expect((await decide(approver, deleteId, "approve")).json).toMatchObject({ outcome: "succeeded" });
    expect(sentToBank()).toContain(`DELETE /webhook/${hook.id}`);
  });
});
