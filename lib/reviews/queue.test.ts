import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { indexPersonApplication } from "@/tests/support/review-applications";
import { defaultQueueFilter, queueCursorFrom, queueCursorText } from "./filter";
import { slaTone } from "./codes";
import { countQueue, readQueue, type QueueCursor, type QueueFilter } from "./queue";
import { assignCase } from "./store";

// The review queue over a real console database (both targets): its rows, filters and pages. The reviewer's actions on
// a case are specified in reviews.test.ts.

const firstPage = { size: 200 };
const reviewer = { id: randomUUID(), email: "reviewer@bank.example" };

describe.each(testDatabaseTargets)("the review queue's pages on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  it("queues applications oldest first with masked names and the risk summary, filtered", async () => {
    const old = await indexPersonApplication(database.db, "sandbox", 100);
    const young = await indexPersonApplication(database.db, "sandbox", 0.5, null);
    await assignCase(database.db, "sandbox", young, reviewer);
    /** The queue as the reviewer sees it with `filter` (the rest left open), this test's two applications only. */
    const queued = async (filter: Partial<QueueFilter>) =>
      (await readQueue(database.db, "sandbox", reviewer, { ...defaultQueueFilter, ...filter }, firstPage)).rows.filter(
        (row) => row.id === old || row.id === young,
      );
    const all = await queued({ kind: "person_application" });
    expect(all.map((row) => row.id)).toEqual([old, young]);
    expect(all.find((row) => row.id === old)).toEqual({
      id: old,
      kind: "person_application",
      name: "Ada Lovelace",
      createdAt: expect.any(String),
      ageHours: expect.closeTo(100, 1),
      state: "open",
      assigneeId: null,
      assigneeEmail: null,
      risk: [
        { field: "kyc_vendor", value: "alloy" },
        { field: "risk_score", value: 42 },
      ],
    });
    const idsWith = async (filter: Partial<QueueFilter>) => (await queued(filter)).map((row) => row.id);
    expect(await idsWith({ assignee: "mine" })).toEqual([young]);
    expect(await idsWith({ assignee: "unassigned" })).toEqual([old]);
    expect(await idsWith({ minAgeHours: 24 })).toEqual([old]);
    expect(await idsWith({ kind: "business_application" })).toEqual([]);
    expect(await idsWith({ state: "decided" })).toEqual([]);
  });

  it("pages the queue without repeating or skipping a row: ties on the creation time, microseconds, no creation time last", async () => {
    // Production holds only this test's applications, so the queue's pages can be compared with the whole.
    const place = async (created: string | null) => {
      const id = `apsn_${randomUUID().replaceAll("-", "")}`;
      const state = { id, first_name: "Grace", last_name: "Hopper", created_at: created };
      await database.db.insert(schema.bankObjects).values({ environment: "production", id, resource: "person_application", state, version: 1 });
      // Through SQL, not a Date: a Date would drop the microseconds the cursor must keep.
      if (created)
        await database.db
          .update(schema.bankObjects)
          .set({ bankCreatedAt: sql`${created}::timestamptz` })
          .where(eq(schema.bankObjects.id, id));
      return { id, created };
    };
    const placed = [
      await place("2026-01-01T00:00:00.000001Z"),
      await place("2026-01-01T00:00:00.000002Z"),
      await place("2026-01-01T00:00:00.000002Z"),
      await place("2026-01-01T00:00:00.000002Z"),
      await place("2026-01-02T00:00:00Z"),
      await place(null),
      await place(null),
    ];
    const order = (row: (typeof placed)[number]) => `${row.created ?? "none, so last"} ${row.id}`;
    const expected = [...placed].sort((a, b) => (order(a) < order(b) ? -1 : 1)).map((row) => row.id);
    const undecided = { assignee: "any", kind: "any", minAgeHours: 0, state: "undecided" } as const;
    const whole = await readQueue(database.db, "production", reviewer, undecided, firstPage);
    expect(whole.rows.map((row) => row.id)).toEqual(expected);
    expect(whole.next).toBeNull();

    const walked: string[] = [];
    let after: QueueCursor | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await readQueue(database.db, "production", reviewer, undecided, { after, size: 2 });
      walked.push(...page.rows.map((row) => row.id));
      if (!page.next) break;
      // Through the URL, as the pager's link carries it.
      after = queueCursorFrom(queueCursorText(page.next)).cursor;
    }
    expect(walked).toEqual(expected);
  });

  it("counts exactly what each filter keeps, and each SLA colour, as a brute-force walk of every page finds", async () => {
    const sla = 48;
    const over = await indexPersonApplication(database.db, "sandbox", 100);
    const due = await indexPersonApplication(database.db, "sandbox", 40);
    const fresh = await indexPersonApplication(database.db, "sandbox", 1);
    await assignCase(database.db, "sandbox", fresh, reviewer);
    const decided = await indexPersonApplication(database.db, "sandbox", 30);
    await database.db.insert(schema.reviewCases).values({
      environment: "sandbox",
      applicationId: decided,
      kind: "person_application",
      state: "decided",
      decision: "approve",
      reasonCode: "all_verified",
      decidedAt: new Date(),
    });
    const now = new Date();
    const filters: QueueFilter[] = [];
    for (const assignee of ["any", "mine", "unassigned"] as const)
      for (const kind of ["any", "person_application", "business_application"] as const)
        for (const minAgeHours of [0, 24, 48])
          for (const state of ["undecided", "open", "awaiting_second_review", "decided", "any"] as const)
            filters.push({ assignee, kind, minAgeHours, state });
    for (const filter of filters) {
      const rows = [];
      let after: QueueCursor | undefined;
      for (;;) {
        const page = await readQueue(database.db, "sandbox", reviewer, filter, { after, size: 3 }, now);
        rows.push(...page.rows);
        if (!page.next) break;
        after = page.next;
      }
      const tones = rows.map((row) => slaTone(row.ageHours, sla));
      expect(await countQueue(database.db, "sandbox", reviewer, filter, sla, now), JSON.stringify(filter)).toEqual({
        total: rows.length,
        sla: {
          ok: tones.filter((tone) => tone === "ok").length,
          due: tones.filter((tone) => tone === "due").length,
          over: tones.filter((tone) => tone === "over").length,
        },
      });
    }
    // This test's four fall in the colours their ages say.
    const mine = await readQueue(
      database.db,
      "sandbox",
      reviewer,
      { assignee: "any", kind: "any", minAgeHours: 0, state: "any" },
      { size: 500 },
      now,
    );
    const toneOf = (id: string) => slaTone(mine.rows.find((row) => row.id === id)!.ageHours, sla);
    expect([over, due, fresh, decided].map(toneOf)).toEqual(["over", "due", "ok", "ok"]);
  });
});
