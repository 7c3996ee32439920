import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { queueCursorFrom, queueCursorText } from "./filter";
import { readQueue, type QueueCursor } from "./queue";

// The review queue's paging over a real console database (both targets); its filters and rows are specified with the
// reviewer's actions in reviews.test.ts.

const firstPage = { size: 200 };
const reviewer = { id: randomUUID(), email: "reviewer@bank.example" };

describe.each(testDatabaseTargets)("the review queue's pages on $name", (target) => {
  const database = migratedConsoleDatabase(target);

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
});
