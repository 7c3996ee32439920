import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "@/lib/db/console-schema";
import { recordObservations } from "@/lib/index/store";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxRoutesHarness } from "@/tests/support/sandbox-routes";

// Snapshot, reset and restore through the console's sandbox routes, and the console's index following the bank.

describe.each(testDatabaseTargets)("the console's sandbox routes: snapshot, reset, restore on $name", (target) => {
  const { database, call, bank, recordsOf, backfillDone } = sandboxRoutesHarness(target);

  describe("snapshot, reset, restore", () => {
    const indexedIds = async () =>
      (await database.db.select({ id: schema.bankObjects.id }).from(schema.bankObjects).where(eq(schema.bankObjects.environment, "sandbox"))).map(
        (row) => row.id,
      );

    it("downloads the snapshot (audited first, sizes only), resets, restores it, and gives the same lists; the index follows", async () => {
      const listBefore = (await bank("GET", "/ach?page_size=1000")).body.data;
      const webhooksBefore = (await bank("GET", "/webhook?page_size=1000")).body.data;
      const { now } = (await call("GET", "/clock")).json as { now: string };

      const download = await call("GET", "/snapshot");
      expect(download.status).toBe(200);
      expect(download.headers.get("content-disposition")).toBe(`attachment; filename="sandbox-snapshot-${now.replace(/:/g, "-")}.json"`);
      expect(download.headers.get("cache-control")).toContain("no-store");
      const file = JSON.parse(download.text) as { tables: Record<string, unknown[]> };
      expect(file.tables.ach).toHaveLength(listBefore.length);
      const [downloaded] = await recordsOf(download);
      expect(downloaded).toMatchObject({
        action: "sandbox.snapshot.download",
        outcome: "succeeded",
        after: { bytes: Buffer.byteLength(download.text), clock: now, rows: expect.objectContaining({ ach: listBefore.length }) },
      });
      expect(JSON.stringify(downloaded)).not.toContain(String(listBefore[0]!.id));

      // An object the index holds that no reset keeps.
      await recordObservations(database.db, "sandbox", [{ resource: "ach", id: "ach_gone_after_reset", state: { id: "ach_gone_after_reset" } }], {
        source: "backfill",
      });
      const started = performance.now();
      const reset = await call("POST", "/reset", { seed: "empty" });
      const answeredMs = performance.now() - started;
      expect(reset).toMatchObject({ status: 200, json: { seed: "empty", index: "rebuilding" } });
      expect((await recordsOf(reset))[0]).toMatchObject({
        action: "sandbox.reset",
        before: { seed: "empty" },
        after: reset.json,
        outcome: "succeeded",
      });
      expect((await bank("GET", "/ach?page_size=10")).body.data).toEqual([]);
      await backfillDone();
      expect(await indexedIds()).not.toContain("ach_gone_after_reset");
      // The console's subscriptions were gone with every webhook: set up again.
      const ownWebhooks = (await bank("GET", "/webhook?page_size=1000")).body.data.filter(
        (hook) => (hook.userdata as { console_index?: string } | null)?.console_index === "sandbox",
      );
      expect(ownWebhooks.length).toBeGreaterThan(0);

      const restoreStarted = performance.now();
      const restore = await call("PUT", "/snapshot", download.text);
      expect(restore).toMatchObject({ status: 200, json: { restored: expect.objectContaining({ ach: listBefore.length }), index: "rebuilding" } });
      await backfillDone();
      const rebuiltMs = performance.now() - restoreStarted;
      expect((await bank("GET", "/ach?page_size=1000")).body.data).toEqual(listBefore);
      expect(
        (await bank("GET", "/webhook?page_size=1000")).body.data.filter((hook) => webhooksBefore.some((kept) => kept.id === hook.id)),
      ).toHaveLength(webhooksBefore.length);
      const [restored] = await recordsOf(restore);
      expect(restored).toMatchObject({
        action: "sandbox.snapshot.restore",
        outcome: "succeeded",
        before: { bytes: expect.any(Number), rows: expect.any(Object) },
      });
      expect(JSON.stringify(restored).length).toBeLessThan(5_000);
      // The index holds what the bank holds again: every ACH transfer of the restored state.
      const indexed = new Set(await indexedIds());
      expect(listBefore.every((transfer) => indexed.has(transfer.id as string))).toBe(true);
      const objects = indexed.size;
      console.info(
        `[${target.name}] demo snapshot ${Buffer.byteLength(download.text)} bytes; reset answered in ${Math.round(answeredMs)} ms; ` +
          `restore + index rebuilt (${objects} objects) in ${Math.round(rebuiltMs)} ms`,
      );
    }, 120_000);
  });
});
