import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createApiRoute } from "@/lib/api/route";
import { audited, recordAuditEvent } from "@/lib/audit/trail";
import { createLogger } from "@/lib/log";
import { auditRecordsOf, expectedAuditRecord } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { reviewCaseKit, reviewEnvironment as environment } from "@/tests/support/review-cases";
import { caseRecordResponse, caseRecordRoute } from "./record-download";
import type { CaseRecord } from "./record";
import { readCase } from "./store";

// A case from assignment to a confirmed decision, each step audited, and its case record.

describe.each(testDatabaseTargets)("a review case's walk and its record on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let requestId = "";
  const { as, run, reviewPeople, indexedPerson } = reviewCaseKit(database, (id) => (requestId = id));
  const people = reviewPeople();

  it("walks a case: assign, checklist, note, propose, a second reviewer confirms; each step audited", async () => {
    const id = await indexedPerson(5);
    expect(await run("assign", people.reviewerA, { applicationId: id })).toEqual({ error: null, done: "Assigned to you" });
    expect(await auditRecordsOf(database, requestId)).toEqual([
      expectedAuditRecord(
        { actor: people.reviewerA, environment, requestId },
        {
          action: "review.assign",
          targetId: id,
          before: null,
          after: { assigneeId: people.reviewerA.id, assigneeEmail: people.reviewerA.email },
          outcome: "succeeded",
          error: null,
        },
      ),
    ]);
    expect(await run("markItem", people.reviewerA, { applicationId: id, item: "identity", mark: "verified", note: "passport seen" })).toEqual({
      error: null,
      done: "Identity (name matches documents) marked as verified: passport seen",
    });
    expect(await run("markItem", people.reviewerA, { applicationId: id, item: "address", mark: "discrepancy", note: "" })).toEqual({
      error: null,
      done: "Address marked as a discrepancy",
    });
    expect(await run("addNote", people.reviewerA, { applicationId: id, text: "  Address differs from utility bill  " })).toEqual({
      error: null,
      done: "Note added",
    });
    expect(
      await run("propose", people.reviewerA, {
        applicationId: id,
        decision: "decline",
        reasonCode: "identity_not_verified",
        note: "Bill shows another address",
      }),
    ).toEqual({ error: null, done: "Proposed; awaiting second review" });

    const proposed = (await readCase(database.db, environment, id))!;
    expect(proposed.state).toBe("awaiting_second_review");
    expect(proposed.items.map(({ item, mark, notes }) => ({ item, mark, notes: notes.map((note) => note.text) }))).toEqual([
      { item: "identity", mark: "verified", notes: ["passport seen"] },
      { item: "date_of_birth", mark: null, notes: [] },
      { item: "address", mark: "discrepancy", notes: [] },
      { item: "identification_number", mark: null, notes: [] },
      { item: "documents", mark: null, notes: [] },
    ]);
    expect(proposed.notes.map(({ authorEmail, text }) => ({ authorEmail, text }))).toEqual([
      { authorEmail: people.reviewerA.email, text: "Address differs from utility bill" },
    ]);
    const decisionId = String(proposed.decisions[0]!.id);

    expect(await run("resolve", people.reviewerB, { applicationId: id, decisionId, outcome: "confirm", note: "" })).toEqual({
      error: null,
      done: "Decision confirmed",
    });
    const [record] = await auditRecordsOf(database, requestId);
    expect(record).toEqual(
      expectedAuditRecord(
        { actor: people.reviewerB, environment, requestId },
        {
          action: "review.decision.confirm",
          targetId: id,
          before: null,
          after: {
            decisionId: Number(decisionId),
            decision: "decline",
            reasonCode: "identity_not_verified",
            outcome: "confirmed",
            proposedBy: people.reviewerA.email,
          },
          outcome: "succeeded",
          error: null,
        },
      ),
    );
    const decided = (await readCase(database.db, environment, id))!;
    expect({ state: decided.state, decision: decided.decision, reasonCode: decided.reasonCode }).toEqual({
      state: "decided",
      decision: "decline",
      reasonCode: "identity_not_verified",
    });
    expect(decided.decisions.map(({ state, proposedByEmail, resolvedByEmail }) => ({ state, proposedByEmail, resolvedByEmail }))).toEqual([
      { state: "confirmed", proposedByEmail: people.reviewerA.email, resolvedByEmail: people.reviewerB.email },
    ]);
    expect(await run("markItem", people.reviewerA, { applicationId: id, item: "documents", mark: "verified" })).toEqual({
      error: "state: this case is decided; nothing of it changes any more",
      done: null,
    });

    // The case record: every step, its actors and times, in JSON and in printable HTML; each download audited.
    await recordAuditEvent(database.db, {
      actor: people.reviewerA,
      environment,
      action: "person_application.reveal",
      targetId: id,
      requestId: `req_${randomUUID()}`,
      before: null,
      after: { requested: ["date_of_birth"], fields: ["date_of_birth"], reason: "KYC-9", expiresAt: "2026-11-28T10:10:00Z" },
    });
    const download = async (format: "json" | "html") => {
      as(people.reviewerB);
      const call = {
        params: { id },
        query: { format },
        searchParams: new URLSearchParams({ format }),
        user: people.reviewerB,
        requestId,
        log: undefined as never,
        body: undefined,
      };
      return caseRecordResponse(call, {
        db: database.db,
        environment,
        audited: (entry, perform, options) => audited(database.db, entry, perform, options),
        retentionYears: 5,
      });
    };
    const json = await download("json");
    expect(json.headers.get("content-disposition")).toBe(`attachment; filename="case-record-${id}.json"`);
    expect(await auditRecordsOf(database, requestId)).toEqual([
      expectedAuditRecord(
        { actor: people.reviewerB, environment, requestId },
        { action: "review.record.download", targetId: id, before: null, after: { format: "json" }, outcome: "succeeded", error: null },
      ),
    ]);
    const caseRecord = (await json.json()) as CaseRecord;
    expect(caseRecord.case).toMatchObject({
      state: "decided",
      decision: "decline",
      reasonCode: "identity_not_verified",
      reasonLabel: "Identity could not be verified",
    });
    expect(caseRecord.application.state).toMatchObject({ id, date_of_birth: "****-**-**", identification_number: "*****6789", bankdata: "[masked]" });
    expect(caseRecord.checklist.filter((item) => item.mark).map((item) => [item.item, item.mark, item.markedByEmail])).toEqual([
      ["identity", "verified", people.reviewerA.email],
      ["address", "discrepancy", people.reviewerA.email],
    ]);
    expect(caseRecord.notes.map((note) => [note.authorEmail, note.text])).toEqual([[people.reviewerA.email, "Address differs from utility bill"]]);
    expect(
      caseRecord.decisions.map((decision) => [
        decision.proposedByEmail,
        decision.decision,
        decision.reasonCode,
        decision.state,
        decision.resolvedByEmail,
      ]),
    ).toEqual([[people.reviewerA.email, "decline", "identity_not_verified", "confirmed", people.reviewerB.email]]);
    expect(caseRecord.reveals).toEqual([
      {
        at: expect.any(String),
        actorEmail: people.reviewerA.email,
        role: "compliance",
        fields: ["date_of_birth"],
        reason: "KYC-9",
        expiresAt: "2026-11-28T10:10:00Z",
        requestId: expect.any(String),
      },
    ]);
    expect(caseRecord.auditTrail.map((entry) => entry.action)).toEqual([
      "review.assign",
      "review.checklist.mark",
      "review.checklist.mark",
      "review.note.add",
      "review.decision.propose",
      "review.decision.confirm",
      "review.checklist.mark",
      "person_application.reveal",
      "review.record.download",
    ]);
    expect(caseRecord.retention.years).toBe(5);
    const html = await (await download("html")).text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|src=/);
    for (const text of [
      "Decline",
      "identity_not_verified: Identity could not be verified",
      "Address differs from utility bill",
      people.reviewerA.email,
      people.reviewerB.email,
      "KYC-9",
      "Shown until",
      "kept for 5 years",
    ])
      expect(html).toContain(text);
    expect(html).not.toContain("1990-01-02");
    // It reads as a record: the applicant and the case in its title, steps in words, times in the one format.
    expect(html).toContain(`<title>Case record ${id} · Ada Lovelace</title>`);
    expect(html).toContain("Decision confirmed by a second reviewer");
    expect(html).toContain("Address marked as a discrepancy");
    // What a reader sees has no machine timestamps (a <time> keeps the exact one in its attributes; the application's
    // own JSON, at the end, keeps the bank's values as they are).
    const readerText = html.slice(0, html.indexOf("<pre>")).replace(/<[^>]*>/g, "");
    expect(readerText).not.toMatch(/\d{2}:\d{2}:\d{2}\.\d{3}/);
    expect(html).toContain("counter(page)");
  });

  it("refuses a case record download another site's page started (a link in an email): 403, nothing audited", async () => {
    const id = await indexedPerson(2);
    const route = createApiRoute({ currentUser: async () => people.reviewerA, log: createLogger({ level: "silent" }) })(
      caseRecordRoute(async () => ({
        db: database.db,
        environment,
        audited: (entry, perform, options) => audited(database.db, entry, perform, options),
        retentionYears: 5,
      })),
    );
    const download = (site: string) =>
      route(new Request(`http://console.test/api/reviews/${id}/record?format=json`, { headers: { "sec-fetch-site": site } }), {
        params: Promise.resolve({ id }),
      });
    for (const site of ["cross-site", "same-site"]) {
      const refused = await download(site);
      expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([403, "cross_site"]);
      expect(await auditRecordsOf(database, refused.headers.get("x-request-id")!)).toEqual([]);
    }
    const own = await download("same-origin");
    expect(own.status).toBe(200);
    expect(await auditRecordsOf(database, own.headers.get("x-request-id")!)).toEqual([
      expect.objectContaining({ action: "review.record.download", targetId: id, outcome: "succeeded" }),
    ]);
  });
});
