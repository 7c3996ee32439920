import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { audited, recordAuditEvent } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff, updateStaff } from "@/lib/auth/staff-users";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { auditRecordsOf, expectedAuditRecord, formOf, Refused, requireRole } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { indexPersonApplication } from "@/tests/support/review-applications";
import { reviewActions, type ReviewActionState } from "./actions";
import { createApiRoute } from "@/lib/api/route";
import { createLogger } from "@/lib/log";
import { caseRecordResponse, caseRecordRoute } from "./record-download";
import type { CaseRecord } from "./record";
import { readCase } from "./store";

// The reviewer's server actions against a real console database (both targets): applications are put in the index as
// the worker would, the session is given (`requireRole` refuses a role without the permission, as requireUser does).

const idle: ReviewActionState = { error: null, done: null };
const environment: Environment = "sandbox";
const hour = 3_600_000;
/** What the database answered a statement with (drizzle wraps the driver's error as its cause). */
const refusal = (query: Promise<unknown>) =>
  query.then(
    () => "allowed",
    (error: Error) => (error.cause instanceof Error ? error.cause.message : error.message),
  );

describe.each(testDatabaseTargets)("compliance review on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let actor: StaffUser;
  let requestId: string;
  let reviewerA: StaffUser;
  let reviewerB: StaffUser;
  let viewer: StaffUser;
  let admin: StaffUser;
  const actions = reviewActions({
    requireUser: requireRole(() => actor),
    db: async () => database.db,
    environment: async () => environment,
    audited: (entry, perform, options) => audited(database.db, entry, perform, options),
    newRequestId: () => requestId,
    changed: () => undefined,
  });
  const as = (user: StaffUser) => {
    actor = user;
    requestId = `req_${randomUUID()}`;
  };
  const staff = (role: StaffUser["role"]) => createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: role, role, password: null });
  const indexedPerson = (ageHours: number, bankdata?: unknown) => indexPersonApplication(database.db, environment, ageHours, bankdata);
  const indexedBusiness = async (owners: string[]) => {
    const id = `abus_${randomUUID().replaceAll("-", "")}`;
    const created = new Date(Date.now() - hour);
    const state = {
      id,
      name: "Acme LLC",
      person_applications: owners.map((owner) => ({ id: owner, ownership_percentage: 50, roles: ["signer"], title: "CEO" })),
      created_at: created.toISOString(),
    };
    await database.db
      .insert(schema.bankObjects)
      .values({ environment, id, resource: "business_application", state, bankCreatedAt: created, bankUpdatedAt: created, version: 1 });
    return id;
  };
  const run = (action: keyof typeof actions, user: StaffUser, fields: Record<string, string>) => {
    as(user);
    return actions[action](idle, formOf(fields));
  };

  beforeAll(async () => {
    [reviewerA, reviewerB, viewer, admin] = await Promise.all([staff("compliance"), staff("compliance"), staff("viewer"), staff("admin")]);
  });

  it("walks a case: assign, checklist, note, propose, a second reviewer confirms; each step audited", async () => {
    const id = await indexedPerson(5);
    expect(await run("assign", reviewerA, { applicationId: id })).toEqual({ error: null, done: "Assigned to you" });
    expect(await auditRecordsOf(database, requestId)).toEqual([
      expectedAuditRecord(
        { actor: reviewerA, environment, requestId },
        {
          action: "review.assign",
          targetId: id,
          before: null,
          after: { assigneeId: reviewerA.id, assigneeEmail: reviewerA.email },
          outcome: "succeeded",
          error: null,
        },
      ),
    ]);
    expect(await run("markItem", reviewerA, { applicationId: id, item: "identity", mark: "verified", note: "passport seen" })).toEqual({
      error: null,
      done: "Identity (name matches documents) marked as verified: passport seen",
    });
    expect(await run("markItem", reviewerA, { applicationId: id, item: "address", mark: "discrepancy", note: "" })).toEqual({
      error: null,
      done: "Address marked as a discrepancy",
    });
    expect(await run("addNote", reviewerA, { applicationId: id, text: "  Address differs from utility bill  " })).toEqual({
      error: null,
      done: "Note added",
    });
    expect(
      await run("propose", reviewerA, {
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
      { authorEmail: reviewerA.email, text: "Address differs from utility bill" },
    ]);
    const decisionId = String(proposed.decisions[0]!.id);

    expect(await run("resolve", reviewerB, { applicationId: id, decisionId, outcome: "confirm", note: "" })).toEqual({
      error: null,
      done: "Decision confirmed",
    });
    const [record] = await auditRecordsOf(database, requestId);
    expect(record).toEqual(
      expectedAuditRecord(
        { actor: reviewerB, environment, requestId },
        {
          action: "review.decision.confirm",
          targetId: id,
          before: null,
          after: {
            decisionId: Number(decisionId),
            decision: "decline",
            reasonCode: "identity_not_verified",
            outcome: "confirmed",
            proposedBy: reviewerA.email,
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
      { state: "confirmed", proposedByEmail: reviewerA.email, resolvedByEmail: reviewerB.email },
    ]);
    expect(await run("markItem", reviewerA, { applicationId: id, item: "documents", mark: "verified" })).toEqual({
      error: "state: this case is decided; nothing of it changes any more",
      done: null,
    });

    // The case record: every step, its actors and times, in JSON and in printable HTML; each download audited.
    await recordAuditEvent(database.db, {
      actor: reviewerA,
      environment,
      action: "person_application.reveal",
      targetId: id,
      requestId: `req_${randomUUID()}`,
      before: null,
      after: { requested: ["date_of_birth"], fields: ["date_of_birth"], reason: "KYC-9", expiresAt: "2026-11-28T10:10:00Z" },
    });
    const download = async (format: "json" | "html") => {
      as(reviewerB);
      const call = {
        params: { id },
        query: { format },
        searchParams: new URLSearchParams({ format }),
        user: reviewerB,
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
        { actor: reviewerB, environment, requestId },
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
      ["identity", "verified", reviewerA.email],
      ["address", "discrepancy", reviewerA.email],
    ]);
    expect(caseRecord.notes.map((note) => [note.authorEmail, note.text])).toEqual([[reviewerA.email, "Address differs from utility bill"]]);
    expect(
      caseRecord.decisions.map((decision) => [
        decision.proposedByEmail,
        decision.decision,
        decision.reasonCode,
        decision.state,
        decision.resolvedByEmail,
      ]),
    ).toEqual([[reviewerA.email, "decline", "identity_not_verified", "confirmed", reviewerB.email]]);
    expect(caseRecord.reveals).toEqual([
      {
        at: expect.any(String),
        actorEmail: reviewerA.email,
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
      reviewerA.email,
      reviewerB.email,
      "KYC-9",
      "Shown until",
      "kept for 5 years",
    ])
      expect(html).toContain(text);
    expect(html).not.toContain("1990-01-02");
    // It reads as a record: the applicant and the case in its title, steps in words, times to the second.
    expect(html).toContain(`<title>Case record ${id} · Ada Lovelace</title>`);
    expect(html).toContain("Decision confirmed by a second reviewer");
    expect(html).toContain("Address marked as a discrepancy");
    // (The application's own JSON, at the end, keeps the bank's values as they are.)
    expect(html.slice(0, html.indexOf("<pre>"))).not.toMatch(/\d{2}:\d{2}:\d{2}\.\d{3}/);
    expect(html).toContain("counter(page)");
  });

  it("refuses a case record download another site's page started (a link in an email): 403, nothing audited", async () => {
    const id = await indexedPerson(2);
    const route = createApiRoute({ currentUser: async () => reviewerA, log: createLogger({ level: "silent" }) })(
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

  it("refuses confirmation by the proposer (any session of theirs), by a role without review:confirm, and twice", async () => {
    const id = await indexedPerson(3);
    await run("assign", reviewerA, { applicationId: id });
    await run("propose", reviewerA, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "All good" });
    const decisionId = String((await readCase(database.db, environment, id))!.decisions[0]!.id);
    // The same staff member, whatever session the request came from, is the same user id: refused, and audited as failed.
    expect(await run("resolve", reviewerA, { applicationId: id, decisionId, outcome: "confirm" })).toEqual({
      error: "decision: you proposed this decision; a different reviewer must confirm or send it back (four-eyes)",
      done: null,
    });
    expect((await auditRecordsOf(database, requestId)).map(({ action, outcome, error }) => ({ action, outcome, error }))).toEqual([
      {
        action: "review.decision.confirm",
        outcome: "failed",
        error: "decision: you proposed this decision; a different reviewer must confirm or send it back (four-eyes)",
      },
    ]);
    await expect(run("resolve", viewer, { applicationId: id, decisionId, outcome: "confirm" })).rejects.toThrow(Refused);
    expect((await readCase(database.db, environment, id))!.state).toBe("awaiting_second_review");
    // The database refuses it too, whatever the code above it does.
    const forged = database.db.execute(
      sql`UPDATE console.review_decisions SET state = 'confirmed', resolved_by_id = proposed_by_id, resolved_by_email = 'x', resolved_at = now() WHERE id = ${Number(decisionId)}`,
    );
    expect(await refusal(forged)).toMatch(/review_decisions_four_eyes/);

    // Two confirmers at once: exactly one wins.
    const confirm = async (user: StaffUser) => {
      const own = reviewActions({
        requireUser: requireRole(() => user),
        db: async () => database.db,
        environment: async () => environment,
        audited: (entry, perform, options) => audited(database.db, entry, perform, options),
        newRequestId: () => `req_${randomUUID()}`,
        changed: () => undefined,
      });
      return own.resolve(idle, formOf({ applicationId: id, decisionId, outcome: "confirm" }));
    };
    const answers = await Promise.all([confirm(reviewerB), confirm(admin)]);
    expect(answers.filter((answer) => answer.done === "Decision confirmed")).toHaveLength(1);
    expect(answers.filter((answer) => answer.error?.startsWith("decision: already"))).toHaveLength(1);
  });

  it("refuses confirmation by an account the proposer created or last promoted (four-eyes between people), audited", async () => {
    const id = await indexedPerson(3);
    await run("assign", admin, { applicationId: id });
    await run("propose", admin, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "All good" });
    const decisionId = String((await readCase(database.db, environment, id))!.decisions[0]!.id);
    const adminTwo = await createStaff(database.db, {
      email: `admin.two.${randomUUID()}@bank.example`,
      name: "admin.two",
      role: "admin",
      password: null,
      createdBy: admin.id,
    });
    const promoted = await staff("viewer");
    await updateStaff(database.db, promoted.id, { role: "compliance", roleChangedBy: admin.id });
    for (const [user, how] of [
      [adminTwo, "created"],
      [{ ...promoted, role: "compliance" as const }, "last changed the role of"],
    ] as const) {
      const answer = await run("resolve", user, { applicationId: id, decisionId, outcome: "confirm" });
      expect(answer).toEqual({ error: expect.stringContaining(`${admin.email}, who asked for this, ${how} your account`), done: null });
      expect((await auditRecordsOf(database, requestId)).map(({ action, actorId, outcome }) => ({ action, actorId, outcome }))).toEqual([
        { action: "review.decision.confirm", actorId: user.id, outcome: "failed" },
      ]);
    }
    expect((await readCase(database.db, environment, id))!.state).toBe("awaiting_second_review");
    // Someone the proposer neither created nor promoted confirms it.
    expect(await run("resolve", reviewerB, { applicationId: id, decisionId, outcome: "confirm" })).toEqual({
      error: null,
      done: "Decision confirmed",
    });
  });

  it("keeps a checklist item's notes as a history: a new note is added, earlier ones stay with their author and time", async () => {
    const id = await indexedPerson(2);
    await run("assign", reviewerA, { applicationId: id });
    await run("markItem", reviewerA, { applicationId: id, item: "identity", mark: "discrepancy", note: "name misspelt on passport" });
    await run("markItem", reviewerA, { applicationId: id, item: "identity", mark: "verified", note: "" });
    await run("markItem", reviewerA, { applicationId: id, item: "identity", mark: "verified", note: "corrected passport seen" });
    const identity = (await readCase(database.db, environment, id))!.items.find((item) => item.item === "identity")!;
    expect(identity.mark).toBe("verified");
    expect(identity.notes.map(({ authorEmail, text }) => ({ authorEmail, text }))).toEqual([
      { authorEmail: reviewerA.email, text: "name misspelt on passport" },
      { authorEmail: reviewerA.email, text: "corrected passport seen" },
    ]);
    expect(identity.notes.every((note) => !Number.isNaN(Date.parse(note.at)))).toBe(true);
    // The database keeps them too, whatever the code above it does.
    expect(await refusal(database.db.execute(sql`UPDATE console.review_checklist_notes SET text = 'edited' WHERE application_id = ${id}`))).toBe(
      "review notes are append-only (UPDATE refused)",
    );
    expect(await refusal(database.db.execute(sql`DELETE FROM console.review_checklist_notes WHERE application_id = ${id}`))).toBe(
      "review notes are append-only (DELETE refused)",
    );
  });

  it("sends a decision back with a note, and the assignee can propose again", async () => {
    const id = await indexedPerson(2);
    await run("assign", reviewerA, { applicationId: id });
    await run("propose", reviewerA, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "ok" });
    const decisionId = String((await readCase(database.db, environment, id))!.decisions[0]!.id);
    expect(await run("resolve", reviewerB, { applicationId: id, decisionId, outcome: "return", note: "" })).toEqual({
      error: "note: required",
      done: null,
    });
    expect(await run("resolve", reviewerB, { applicationId: id, decisionId, outcome: "return", note: "Check the documents first" })).toEqual({
      error: null,
      done: "Sent back to the reviewer",
    });
    const returned = (await readCase(database.db, environment, id))!;
    expect(returned.state).toBe("open");
    expect(returned.decisions.map(({ state, resolutionNote }) => ({ state, resolutionNote }))).toEqual([
      { state: "returned", resolutionNote: "Check the documents first" },
    ]);
    expect(
      await run("propose", reviewerA, {
        applicationId: id,
        decision: "request_information",
        reasonCode: "document_missing",
        note: "Need a new passport scan",
      }),
    ).toMatchObject({ error: null });
  });

  it("lets one reviewer at a time work a case", async () => {
    const id = await indexedPerson(1);
    await run("assign", reviewerA, { applicationId: id });
    expect(await run("assign", reviewerB, { applicationId: id })).toEqual({
      error: `assignee: this case is assigned to ${reviewerA.email}; they must unassign it first`,
      done: null,
    });
    expect(await run("markItem", reviewerB, { applicationId: id, item: "identity", mark: "verified" })).toEqual({
      error: `assignee: this case is assigned to ${reviewerA.email}`,
      done: null,
    });
    expect(await run("unassign", reviewerB, { applicationId: id })).toEqual({
      error: `assignee: this case is assigned to ${reviewerA.email}; only they can unassign it`,
      done: null,
    });
    // Anyone may add a note to a case.
    expect(await run("addNote", reviewerB, { applicationId: id, text: "Seen this name before" })).toEqual({ error: null, done: "Note added" });
    expect(await run("unassign", reviewerA, { applicationId: id })).toEqual({ error: null, done: "Unassigned" });
    expect(await run("assign", reviewerB, { applicationId: id })).toEqual({ error: null, done: "Assigned to you" });
    expect(await run("unassign", admin, { applicationId: id })).toEqual({ error: null, done: "Unassigned" });
  });

  it("refuses bad input naming the field", async () => {
    const id = await indexedPerson(1);
    await run("assign", reviewerA, { applicationId: id });
    expect(await run("assign", reviewerA, { applicationId: "nope" })).toEqual({
      error: "applicationId: expected a person or business application id",
      done: null,
    });
    expect(await run("assign", reviewerA, { applicationId: "apsn_notindexed" })).toEqual({
      error: "application: apsn_notindexed is not in the console's index of the sandbox bank",
      done: null,
    });
    expect(await run("markItem", reviewerA, { applicationId: id, item: "identity", mark: "maybe" })).toEqual({
      error: "mark: expected verified, discrepancy or not_applicable",
      done: null,
    });
    expect(await run("markItem", reviewerA, { applicationId: id, item: "tin", mark: "verified" })).toEqual({
      error: "item: expected one of identity, date_of_birth, address, identification_number, documents",
      done: null,
    });
    expect(await run("addNote", reviewerA, { applicationId: id, text: "   " })).toEqual({ error: "text: required", done: null });
    expect(await run("propose", reviewerA, { applicationId: id, decision: "accept", reasonCode: "x", note: "n" })).toEqual({
      error: "decision: expected approve, decline or request_information",
      done: null,
    });
    expect(await run("propose", reviewerA, { applicationId: id, decision: "approve", reasonCode: "high_risk", note: "n" })).toEqual({
      error: "reasonCode: not a reason code for approve (docs/reviews.md lists them)",
      done: null,
    });
    expect(await run("propose", reviewerA, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "" })).toEqual({
      error: "note: required",
      done: null,
    });
    expect(await run("resolve", reviewerB, { applicationId: id, decisionId: "abc", outcome: "confirm" })).toEqual({
      error: "decisionId: expected a decision id",
      done: null,
    });
    expect(await run("resolve", reviewerB, { applicationId: id, decisionId: "1", outcome: "maybe" })).toEqual({
      error: "outcome: expected confirm or return",
      done: null,
    });
    await expect(run("addNote", viewer, { applicationId: id, text: "hi" })).rejects.toThrow(Refused);
  });

  it("keeps notes append-only in the database", async () => {
    const id = await indexedPerson(1);
    await run("addNote", reviewerA, { applicationId: id, text: "kept" });
    await run("assign", reviewerA, { applicationId: id });
    await run("propose", reviewerA, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "ok" });
    expect(await refusal(database.db.execute(sql`UPDATE console.review_notes SET text = 'edited' WHERE application_id = ${id}`))).toBe(
      "review notes are append-only (UPDATE refused)",
    );
    expect(await refusal(database.db.execute(sql`DELETE FROM console.review_notes WHERE application_id = ${id}`))).toBe(
      "review notes are append-only (DELETE refused)",
    );
    expect(await refusal(database.db.execute(sql`TRUNCATE console.review_notes`))).toBe("review notes are append-only (TRUNCATE refused)");
    expect(await refusal(database.db.execute(sql`DELETE FROM console.review_decisions WHERE application_id = ${id}`))).toBe(
      "review decisions are kept (DELETE refused)",
    );
    expect((await readCase(database.db, environment, id))!.notes.map((note) => note.text)).toEqual(["kept"]);
  });

  it("lists a business's owners on its checklist", async () => {
    const id = await indexedBusiness(["pa_owner1", "pa_owner2"]);
    expect((await readCase(database.db, environment, id))!.items.map((item) => item.item)).toEqual([
      "business_registration",
      "identification_number",
      "address",
      "documents",
      "owner:pa_owner1",
      "owner:pa_owner2",
    ]);
  });
});
