import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { ListedResource } from "@/lib/contract";
import { runBackfill } from "@/lib/index/backfill";
import { purgeEnvironment } from "@/lib/index/retention";
import { recordObservations, type ObservedState } from "@/lib/index/store";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { indexCounts } from "./index-counts";

// Home's exact counts from the index, against a brute-force count of the sandbox bank's full lists (every page).

const key = { id: "key_counts_test", secret: "counts-test-secret-0123456789" };
const fixture = sandboxBankForFile(key);
const log = createLogger({ level: "silent" });

async function everyObject(resource: ListedResource): Promise<Record<string, unknown>[]> {
  const objects: Record<string, unknown>[] = [];
  for await (const page of fixture.bank.resources.listPages(resource, { page_size: 1000 })) objects.push(...page.data);
  return objects;
}

describe.each(testDatabaseTargets)("exact counts from the index on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  it("counts nothing as exact before a kind's walk has finished", async () => {
    await recordObservations(database.db, "production", [{ resource: "ach", id: "ach_counts_1", state: { id: "ach_counts_1", status: "pending" } }], {
      source: "sweep",
    });
    const counts = await indexCounts(database.db, "production");
    expect(counts).toMatchObject({ complete: [], byStatus: {}, applicationsWithoutPerson: null });
    expect(Date.parse(counts.lastChange!)).toBeLessThanOrEqual(Date.parse(counts.asOf));
  });

  describe("the counts the index keeps as its objects change", () => {
    type Counted = { resource: string; status: string; objects: number; without_person: number };
    const kept = async () =>
      (
        await database.db.execute<Counted>(sql`
          SELECT resource, status, objects::int AS objects, without_person::int AS without_person
          FROM console.bank_object_counts WHERE environment = 'production' AND objects > 0 ORDER BY 1, 2`)
      ).rows;
    // What the kept counts stand for: the objects themselves, counted one by one.
    const countedOneByOne = async () =>
      (
        await database.db.execute<Counted>(sql`
          SELECT resource, coalesce(state->>'status', '') AS status, count(*)::int AS objects,
                 (count(*) FILTER (WHERE resource = 'person_application' AND coalesce(state->'person_id', 'null') = 'null'))::int AS without_person
          FROM console.bank_objects WHERE environment = 'production' AND state IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`)
      ).rows;
    const transfer = (id: string, status: string, updatedAt: string, userdata = {}): ObservedState => ({
      resource: "ach",
      id,
      state: { id, status, updated_at: updatedAt, userdata },
    });
    const application = (id: string, personId: string | null, updatedAt: string): ObservedState => ({
      resource: "person_application",
      id,
      state: { id, person_id: personId, updated_at: updatedAt },
    });

    it("follows every insert, status change, deletion and purge, and a TRUNCATE", async () => {
      const at = (second: number) => `2026-11-20T10:00:0${second}Z`;
      await recordObservations(
        database.db,
        "production",
        [
          transfer("ach_kept_1", "pending", at(1)),
          transfer("ach_kept_2", "pending", at(1)),
          transfer("ach_kept_3", "returned", at(1)),
          application("person_application_kept_1", null, at(1)),
          application("person_application_kept_2", "person_kept", at(1)),
        ],
        { source: "backfill" },
      );
      expect(await kept()).toEqual(await countedOneByOne());
      expect(await kept()).toEqual(
        expect.arrayContaining([
          { resource: "ach", status: "pending", objects: expect.any(Number), without_person: 0 },
          { resource: "person_application", status: "", objects: expect.any(Number), without_person: expect.any(Number) },
        ]),
      );

      const before = await kept();
      await recordObservations(
        database.db,
        "production",
        [
          transfer("ach_kept_1", "sent", at(2)),
          transfer("ach_kept_2", "pending", at(2), { note: "only userdata changed" }),
          application("person_application_kept_1", "person_kept_1", at(2)),
          { resource: "ach", id: "ach_kept_3", state: null },
        ],
        { source: "event" },
      );
      const after = await kept();
      expect(after).toEqual(await countedOneByOne());
      const objects = (rows: Counted[], resource: string, status: string) => rows.find((row) => row.resource === resource && row.status === status);
      expect(objects(after, "ach", "pending")!.objects).toBe(objects(before, "ach", "pending")!.objects - 1);
      expect(objects(after, "ach", "sent")!.objects).toBe((objects(before, "ach", "sent")?.objects ?? 0) + 1);
      expect(objects(after, "ach", "returned")?.objects ?? 0).toBe(objects(before, "ach", "returned")!.objects - 1);
      expect(objects(after, "person_application", "")!.without_person).toBe(objects(before, "person_application", "")!.without_person - 1);

      // A TRUNCATE empties the counts with the objects (rolled back: the other tests keep their index).
      await database.db
        .transaction(async (tx) => {
          await tx.execute(sql`TRUNCATE console.bank_objects`);
          const left = await tx.execute(sql`SELECT count(*)::int AS rows FROM console.bank_object_counts`);
          expect(left.rows[0]).toEqual({ rows: 0 });
          tx.rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Error && error.message === "Rollback")) throw error;
        });

      await purgeEnvironment(database.db, "production");
      expect(await kept()).toEqual([]);
    });
  });

  describe("once the walk has finished", () => {
    beforeAll(async () => {
      await runBackfill({ db: database.db, client: fixture.bank, environment: "sandbox", pageSize: 500, pagesPerSecond: 0, log });
    }, 120_000);

    it("gives per kind and status exactly the counts of the bank's full lists", async () => {
      const counts = await indexCounts(database.db, "sandbox");
      expect(counts.complete).toEqual([
        "ach",
        "business_application",
        "card",
        "counterparty",
        "deposit_sweep",
        "digital_wallet_token",
        "fednow",
        "network_transfer",
        "person_application",
        "webhook",
      ]);
      for (const resource of ["ach", "fednow", "network_transfer", "webhook", "card"] as const) {
        const expected: Record<string, number> = {};
        for (const object of await everyObject(resource)) expected[String(object.status)] = (expected[String(object.status)] ?? 0) + 1;
        expect(counts.byStatus[resource], resource).toEqual(expected);
      }
      const applications = await everyObject("person_application");
      expect(counts.applicationsWithoutPerson).toBe(applications.filter((application) => application.person_id === null).length);
      expect(counts.byStatus.person_application).toEqual({ "": applications.length });
    });
  });
});
