import { beforeAll, describe, expect, it } from "vitest";
import type { ListedResource } from "@/lib/contract";
import { runBackfill } from "@/lib/index/backfill";
import { recordObservations } from "@/lib/index/store";
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
