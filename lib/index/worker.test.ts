import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createBankClient, type BankClient } from "@/lib/bank/client";
import type { ResourceName } from "@/lib/contract/names";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { capturedLog } from "@/tests/support/captured-log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { readUntil, sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { listEvents } from "./events-list";
import { storeNotification } from "./inbox";
import { recordObservations } from "./store";
import { startIndexWorker, type IndexWorker } from "./worker";

// What the inbox worker refuses, retries and gives up, against the sandbox bank started for real and a real console
// database. Rows are stored as the receiver stores them, without its checks: a row may predate them (the receiver
// allowed ids of any kind up to 128 characters) or come from someone holding the receiver's secret.

const key = { id: "key_worker_test", secret: "worker-test-secret-0123456789" };
const fixture = sandboxBankForFile(key);
const bankDown = createBankClient({ baseUrl: "http://127.0.0.1:9", auth: { type: "bearer", token: "x" } }, { retries: 0 });

describe.each(testDatabaseTargets)("the inbox worker on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let worker: IndexWorker | undefined;
  const startWorker = (options: { log: ReturnType<typeof createLogger>; bank?: BankClient; maxAttempts?: number }) =>
    (worker = startIndexWorker({
      db: database.db,
      clientFor: async () => options.bank ?? fixture.bank,
      log: options.log,
      pollMs: 50,
      maxAttempts: options.maxAttempts ?? 10,
    }));
  const store = (resource: ResourceName, op: "create" | "update", id: string) =>
    storeNotification(database.db, "sandbox", { event: `${resource}.${op}`, op, id, url: `${fixture.sandbox.url}/${resource}/${id}`, resource });
  const inboxRow = async (id: number) => (await database.db.select().from(schema.bankEventInbox).where(eq(schema.bankEventInbox.id, id)))[0]!;
  const settled = (id: number) =>
    readUntil(
      () => inboxRow(id),
      (row) => row.state === "processed",
    );
  const kept = async (objectId: string) =>
    (
      await database.db
        .select()
        .from(schema.bankObjects)
        .where(and(eq(schema.bankObjects.environment, "sandbox"), eq(schema.bankObjects.id, objectId)))
    )[0];
  const versionCount = async (objectId: string) =>
    (
      await database.db
        .select()
        .from(schema.bankObjectVersions)
        .where(and(eq(schema.bankObjectVersions.environment, "sandbox"), eq(schema.bankObjectVersions.objectId, objectId)))
    ).length;
  /** An ACH transfer of the bank, indexed as the backfill indexes it. */
  const indexedAch = async (index: number) => {
    const transfer = ((await fixture.bank.list_ach({ page_size: index + 1 })).data as Array<Record<string, unknown> & { id: string }>)[index]!;
    await recordObservations(database.db, "sandbox", [{ resource: "ach", id: transfer.id, state: transfer }], { source: "backfill" });
    return transfer;
  };

  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  it.each([
    [
      "an ACH transfer's id named by a card event",
      0,
      (id: string) => ["card", id] as const,
      /^refused \(nothing fetched\): an id of kind ach \(ach_\), not card$/,
    ],
    [
      "an id longer than the bank's ids",
      1,
      (id: string) => ["ach", `${id}_${"x".repeat(110)}`] as const,
      /^refused \(nothing fetched\): expected an id of kind ach: ach_ then 1 to 64/,
    ],
  ])("refuses and logs %s as a dead letter, without a fetch; the indexed object stays as it was", async (_name, index, named, reason) => {
    const transfer = await indexedAch(index);
    const [resource, id] = named(transfer.id);
    const { id: rowId } = await store(resource, "update", id);
    const { log, lines } = capturedLog();
    startWorker({ log });

    expect(await settled(rowId)).toMatchObject({ state: "processed", outcome: "dead_letter", error: expect.stringMatching(reason), attempts: 1 });
    expect(await kept(transfer.id)).toMatchObject({ state: transfer, goneAt: null, version: 1 });
    expect(await versionCount(transfer.id)).toBe(1);
    expect(lines()).toContainEqual(expect.objectContaining({ level: 40, inboxId: rowId, objectId: id, msg: "bank event given up (dead letter)" }));
  });

  it("retries and reports a 404 for an ACH transfer (the bank never deletes one), never recording it gone", async () => {
    const id = `ach_missing_${randomBytes(4).toString("hex")}`;
    const state = { id, status: "pending", created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z" };
    await recordObservations(database.db, "sandbox", [{ resource: "ach", id, state }], { source: "backfill" });
    const { id: rowId } = await store("ach", "update", id);
    const { log, lines } = capturedLog();
    startWorker({ log });

    const waiting = await readUntil(
      () => inboxRow(rowId),
      (row) => row.error !== null,
    );
    expect(waiting).toMatchObject({
      state: "pending",
      outcome: null,
      attempts: 1,
      error: expect.stringMatching(/404 for ach_missing_.*never deleted/),
    });
    await worker!.stop();
    expect(await kept(id)).toMatchObject({ state, goneAt: null, version: 1 });
    expect(await versionCount(id)).toBe(1);
    expect(lines()).toContainEqual(expect.objectContaining({ level: 50, inboxId: rowId, objectId: id, msg: "bank event not processed yet" }));
  });

  it("gives a notification up after the attempt bound: a dead letter with the last reason, listed on /events", async () => {
    const [transfer] = (await fixture.bank.list_network_transfer({ page_size: 1 })).data as Array<{ id: string }>;
    const { id: rowId } = await store("network_transfer", "update", transfer!.id);
    startWorker({ log: capturedLog().log, bank: bankDown, maxAttempts: 2 });

    const row = await settled(rowId);
    expect(row).toMatchObject({ outcome: "dead_letter", attempts: 2, error: expect.stringMatching(/^not processed after 2 attempts: .+/) });
    const listed = await listEvents(database.db, { environment: "sandbox", object: transfer!.id, outcome: "dead_letter" }, { limit: 10 });
    expect(listed).toEqual([expect.objectContaining({ id: rowId, outcome: "dead_letter", error: row.error, attempts: 2, nextAttemptAt: null })]);
  });
});
