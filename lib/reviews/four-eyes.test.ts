import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createStaff, updateStaff } from "@/lib/auth/staff-users";
import { auditRecordsOf, formOf, Refused } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { idleReviewAction as idle, refusal, reviewCaseKit, reviewEnvironment as environment } from "@/tests/support/review-cases";
import { readCase } from "./store";

// Who may confirm a proposed decision: never its proposer, nor an account the proposer created or promoted.

describe.each(testDatabaseTargets)("four-eyes on review decisions on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let requestId = "";
  const { staff, run, sessionOf, reviewPeople, indexedPerson } = reviewCaseKit(database, (id) => (requestId = id));
  const people = reviewPeople();

  it("refuses confirmation by the proposer (any session of theirs), by a role without review:confirm, and twice", async () => {
    const id = await indexedPerson(3);
    await run("assign", people.reviewerA, { applicationId: id });
    await run("propose", people.reviewerA, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "All good" });
    const decisionId = String((await readCase(database.db, environment, id))!.decisions[0]!.id);
    // The same staff member, whatever session the request came from, is the same user id: refused, and audited as failed.
    expect(await run("resolve", people.reviewerA, { applicationId: id, decisionId, outcome: "confirm" })).toEqual({
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
    await expect(run("resolve", people.viewer, { applicationId: id, decisionId, outcome: "confirm" })).rejects.toThrow(Refused);
    expect((await readCase(database.db, environment, id))!.state).toBe("awaiting_second_review");
    // The database refuses it too, whatever the code above it does.
    const forged = database.db.execute(
      sql`UPDATE console.review_decisions SET state = 'confirmed', resolved_by_id = proposed_by_id, resolved_by_email = 'x', resolved_at = now() WHERE id = ${Number(decisionId)}`,
    );
    expect(await refusal(forged)).toMatch(/review_decisions_four_eyes/);

    // Two confirmers at once: exactly one wins.
    const confirm = (user: StaffUser) => sessionOf(user).resolve(idle, formOf({ applicationId: id, decisionId, outcome: "confirm" }));
    const answers = await Promise.all([confirm(people.reviewerB), confirm(people.admin)]);
    expect(answers.filter((answer) => answer.done === "Decision confirmed")).toHaveLength(1);
    expect(answers.filter((answer) => answer.error?.startsWith("decision: already"))).toHaveLength(1);
  });

  it("refuses confirmation by an account the proposer created or last promoted (four-eyes between people), audited", async () => {
    const id = await indexedPerson(3);
    await run("assign", people.admin, { applicationId: id });
    await run("propose", people.admin, { applicationId: id, decision: "approve", reasonCode: "all_verified", note: "All good" });
    const decisionId = String((await readCase(database.db, environment, id))!.decisions[0]!.id);
    const adminTwo = await createStaff(database.db, {
      email: `admin.two.${randomUUID()}@bank.example`,
      name: "admin.two",
      role: "admin",
      password: null,
      createdBy: people.admin.id,
    });
    const promoted = await staff("viewer");
    await updateStaff(database.db, promoted.id, { role: "compliance", roleChangedBy: people.admin.id });
    for (const [user, how] of [
      [adminTwo, "created"],
      [{ ...promoted, role: "compliance" as const }, "last changed the role of"],
    ] as const) {
      const answer = await run("resolve", user, { applicationId: id, decisionId, outcome: "confirm" });
      expect(answer).toEqual({ error: expect.stringContaining(`${people.admin.email}, who asked for this, ${how} your account`), done: null });
      expect((await auditRecordsOf(database, requestId)).map(({ action, actorId, outcome }) => ({ action, actorId, outcome }))).toEqual([
        { action: "review.decision.confirm", actorId: user.id, outcome: "failed" },
      ]);
    }
    expect((await readCase(database.db, environment, id))!.state).toBe("awaiting_second_review");
    // Someone the proposer neither created nor promoted confirms it.
    expect(await run("resolve", people.reviewerB, { applicationId: id, decisionId, outcome: "confirm" })).toEqual({
      error: null,
      done: "Decision confirmed",
    });
  });
});
