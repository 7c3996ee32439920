import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Refused } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { refusal, reviewCaseKit, reviewEnvironment as environment } from "@/tests/support/review-cases";
import { readCase } from "./store";

// A case's rules: checklist notes kept as a history, a decision sent back, one reviewer at a time, bad input named, notes append-only.

describe.each(testDatabaseTargets)("a review case's rules on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const { run, reviewPeople, indexedPerson, indexedBusiness } = reviewCaseKit(database, () => {});
  const people = reviewPeople();

  it("keeps a checklist item's notes as a history: a new note is added, earlier ones stay with their author and time", async () => {
    const id = await indexedPerson(2);
    await run("assign", people.reviewerA, { applicationId: id });
    await run("markItem", people.reviewerA, { applicationId: id, item: "identity", mark: "discrepancy", note: "name misspelt on passport" });
    await run("markItem", people.reviewerA, { applicationId: id, item: "identity", mark: "verified", note: "" });
    await run("markItem", people.reviewerA, { applicationId: id, item: "identity", mark: "verified", note: "corrected passport seen" });
    const identity = (await readCase(database.db, environment, id))!.items.find((item) => item.item === "identity")!;
    expect(identity.mark).toBe("verified");
    expect(identity.notes.map(({ authorEmail, text }) => ({ authorEmail, text }))).toEqual([
      { authorEmail: people.reviewerA.email, text: "name misspelt on passport" },
      { authorEmail: people.reviewerA.email, text: "corrected passport seen" },
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
    await run("assign", people.reviewerA, { applicationId: id });
    await run("propose", people.reviewerA, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "ok" });
    const decisionId = String((await readCase(database.db, environment, id))!.decisions[0]!.id);
    expect(await run("resolve", people.reviewerB, { applicationId: id, decisionId, outcome: "return", note: "" })).toEqual({
      error: "note: required",
      done: null,
    });
    expect(await run("resolve", people.reviewerB, { applicationId: id, decisionId, outcome: "return", note: "Check the documents first" })).toEqual({
      error: null,
      done: "Sent back to the reviewer",
    });
    const returned = (await readCase(database.db, environment, id))!;
    expect(returned.state).toBe("open");
    expect(returned.decisions.map(({ state, resolutionNote }) => ({ state, resolutionNote }))).toEqual([
      { state: "returned", resolutionNote: "Check the documents first" },
    ]);
    expect(
      await run("propose", people.reviewerA, {
        applicationId: id,
        decision: "request_information",
        reasonCode: "document_missing",
        note: "Need a new passport scan",
      }),
    ).toMatchObject({ error: null });
  });

  it("lets one reviewer at a time work a case", async () => {
    const id = await indexedPerson(1);
    await run("assign", people.reviewerA, { applicationId: id });
    expect(await run("assign", people.reviewerB, { applicationId: id })).toEqual({
      error: `assignee: this case is assigned to ${people.reviewerA.email}; they must unassign it first`,
      done: null,
    });
    expect(await run("markItem", people.reviewerB, { applicationId: id, item: "identity", mark: "verified" })).toEqual({
      error: `assignee: this case is assigned to ${people.reviewerA.email}`,
      done: null,
    });
    expect(await run("unassign", people.reviewerB, { applicationId: id })).toEqual({
      error: `assignee: this case is assigned to ${people.reviewerA.email}; only they can unassign it`,
      done: null,
    });
    // Anyone may add a note to a case.
    expect(await run("addNote", people.reviewerB, { applicationId: id, text: "Seen this name before" })).toEqual({ error: null, done: "Note added" });
    expect(await run("unassign", people.reviewerA, { applicationId: id })).toEqual({ error: null, done: "Unassigned" });
    expect(await run("assign", people.reviewerB, { applicationId: id })).toEqual({ error: null, done: "Assigned to you" });
    expect(await run("unassign", people.admin, { applicationId: id })).toEqual({ error: null, done: "Unassigned" });
  });

  it("refuses bad input naming the field", async () => {
    const id = await indexedPerson(1);
    await run("assign", people.reviewerA, { applicationId: id });
    expect(await run("assign", people.reviewerA, { applicationId: "nope" })).toEqual({
      error: "applicationId: expected a person or business application id",
      done: null,
    });
    expect(await run("assign", people.reviewerA, { applicationId: "apsn_notindexed" })).toEqual({
      error: "application: apsn_notindexed is not in the console's index of the sandbox bank",
      done: null,
    });
    expect(await run("markItem", people.reviewerA, { applicationId: id, item: "identity", mark: "maybe" })).toEqual({
      error: "mark: expected verified, discrepancy or not_applicable",
      done: null,
    });
    expect(await run("markItem", people.reviewerA, { applicationId: id, item: "tin", mark: "verified" })).toEqual({
      error: "item: expected one of identity, date_of_birth, address, identification_number, documents",
      done: null,
    });
    expect(await run("addNote", people.reviewerA, { applicationId: id, text: "   " })).toEqual({ error: "text: required", done: null });
    expect(await run("propose", people.reviewerA, { applicationId: id, decision: "accept", reasonCode: "x", note: "n" })).toEqual({
      error: "decision: expected approve, decline or request_information",
      done: null,
    });
    expect(await run("propose", people.reviewerA, { applicationId: id, decision: "approve", reasonCode: "high_risk", note: "n" })).toEqual({
      error: "reasonCode: not a reason code for approve (docs/reviews.md lists them)",
      done: null,
    });
    expect(await run("propose", people.reviewerA, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "" })).toEqual({
      error: "note: required",
      done: null,
    });
    expect(await run("resolve", people.reviewerB, { applicationId: id, decisionId: "abc", outcome: "confirm" })).toEqual({
      error: "decisionId: expected a decision id",
      done: null,
    });
    expect(await run("resolve", people.reviewerB, { applicationId: id, decisionId: "1", outcome: "maybe" })).toEqual({
      error: "outcome: expected confirm or return",
      done: null,
    });
    await expect(run("addNote", people.viewer, { applicationId: id, text: "hi" })).rejects.toThrow(Refused);
  });

  it("keeps notes append-only in the database", async () => {
    const id = await indexedPerson(1);
    await run("addNote", people.reviewerA, { applicationId: id, text: "kept" });
    await run("assign", people.reviewerA, { applicationId: id });
    await run("propose", people.reviewerA, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "ok" });
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
