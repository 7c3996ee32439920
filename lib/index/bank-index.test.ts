import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBankClient, type BankClient, type ListOperationId } from "@/lib/bank/client";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { indexedResources, runBackfill } from "./backfill";
import { storeNotification } from "./inbox";
import { bankNotification } from "./notification";
import { ensureReceiverCredentials, rotateReceiverCredentials, type ReceiverCredentials } from "./receiver-credentials";
import { recordObservations } from "./store";
import { ensureSubscriptions, subscribedEvents } from "./subscriptions";
import { serveReceiver } from "@/tests/support/receiver-server";
import { readUntil, sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { startIndexWorker, type IndexWorker } from "./worker";

// The index of the bank against the sandbox bank started for real (demo seed) and a real console database: the
// inbox worker, subscriptions and the backfill, each as the console runs them. The receiver is receiver.test.ts.

const key = { id: "key_index_test", secret: "index-test-secret-0123456789" };
const log = createLogger({ level: "silent" });
const fixture = sandboxBankForFile(key);

describe.each(testDatabaseTargets)("the index of the bank on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const encryptionKey = randomBytes(32);
  let credentials: ReceiverCredentials;
  let worker: IndexWorker | undefined;
  // Notifications as the receiver stores them once it has checked them (receiver.test.ts).
  const store = (notification: unknown) => storeNotification(database.db, "sandbox", bankNotification.parse(notification));
  // The sandbox environment's rows only: the backfill test walks the same bank into "production".
  const inboxRows = (objectId: string) =>
    database.db
      .select()
      .from(schema.bankEventInbox)
      .where(and(eq(schema.bankEventInbox.environment, "sandbox"), eq(schema.bankEventInbox.objectId, objectId)));
  const versionsOf = (objectId: string) =>
    database.db
      .select()
      .from(schema.bankObjectVersions)
      .where(and(eq(schema.bankObjectVersions.environment, "sandbox"), eq(schema.bankObjectVersions.objectId, objectId)))
      .orderBy(schema.bankObjectVersions.version);
  const keptState = async (objectId: string) =>
    (
      await database.db
        .select()
        .from(schema.bankObjects)
        .where(and(eq(schema.bankObjects.environment, "sandbox"), eq(schema.bankObjects.id, objectId)))
    )[0];
  const startWorker = () => (worker = startIndexWorker({ db: database.db, clientFor: async () => fixture.bank, log, pollMs: 50, maxAttempts: 10 }));

  beforeAll(async () => {
    credentials = await ensureReceiverCredentials(database.db, "sandbox", encryptionKey, "test");
  });
  beforeEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await worker?.stop();
  });

  describe("processing", () => {
    it("fetches the object named by a notification and keeps it as its first version, whatever the payload claimed", async () => {
      // An ACH transfer: no other test here changes or subscribes to real ACH transfers.
      const [transfer] = (await fixture.bank.list_ach({ page_size: 1 })).data as Array<{ id: string }>;
      await store({ event: "ach.update", op: "update", id: transfer!.id, url: `http://elsewhere.example/ach/${transfer!.id}` });
      startWorker();
      const rows = await readUntil(
        () => inboxRows(transfer!.id),
        (found) => found.every((row) => row.state === "processed"),
      );
      expect(rows.map((row) => row.outcome)).toEqual(["changed"]);
      expect((await keptState(transfer!.id))?.state).toEqual(await fixture.bank.get_ach(transfer!.id));
      expect((await versionsOf(transfer!.id)).map((version) => [version.version, version.source, version.eventId])).toEqual([
        [1, "event", rows[0]!.id],
      ]);
    });

    it("works through a backlog in rounds of a few, each object recorded once, in the order their rows were claimed", async () => {
      // ACH transfers other than the first, which the first test here keeps as its own.
      const transfers = ((await fixture.bank.list_ach({ page_size: 11 })).data as Array<{ id: string }>).slice(1);
      for (const transfer of transfers)
        await store({ event: "ach.update", op: "update", id: transfer.id, url: `${fixture.sandbox.url}/ach/${transfer.id}` });
      worker = startIndexWorker({ db: database.db, clientFor: async () => fixture.bank, log, pollMs: 50, batchSize: 3, maxAttempts: 10 });
      const rows = (
        await Promise.all(
          transfers.map((transfer) =>
            readUntil(
              () => inboxRows(transfer.id),
              (found) => found.every((row) => row.state === "processed"),
            ),
          ),
        )
      ).flat();
      expect(rows.map((row) => [row.outcome, row.attempts])).toEqual(transfers.map(() => ["changed", 1]));
      const versions = (await Promise.all(transfers.map((transfer) => versionsOf(transfer.id)))).flat();
      expect(versions.map((version) => version.version)).toEqual(transfers.map(() => 1));
      const inVersionOrder = [...versions].sort((a, b) => a.id - b.id).map((version) => version.eventId);
      expect(inVersionOrder).toEqual(rows.map((row) => row.id).sort((a, b) => a - b));
    });

    it("keeps a notification whose object cannot be fetched, with the reason, and processes it once the bank answers", async () => {
      const [transfer] = (await fixture.bank.list_network_transfer({ page_size: 1, status: "sent" })).data as Array<{ id: string }>;
      await store({
        event: "network_transfer.update",
        op: "update",
        id: transfer!.id,
        url: `${fixture.sandbox.url}/network_transfer/${transfer!.id}`,
      });
      let bankDown = true;
      worker = startIndexWorker({
        db: database.db,
        log,
        pollMs: 50,
        maxAttempts: 10,
        clientFor: async () =>
          bankDown ? createBankClient({ baseUrl: "http://127.0.0.1:9", auth: { type: "bearer", token: "x" } }, { retries: 0 }) : fixture.bank,
      });
      const waiting = await readUntil(
        () => inboxRows(transfer!.id),
        (rows) => rows.some((row) => row.error !== null),
      );
      expect(waiting).toEqual([expect.objectContaining({ state: "pending", error: expect.stringMatching(/.+/), attempts: 1 })]);
      bankDown = false;
      await database.db.update(schema.bankEventInbox).set({ nextAttemptAt: new Date() }).where(eq(schema.bankEventInbox.objectId, transfer!.id));
      const settled = await readUntil(
        () => inboxRows(transfer!.id),
        (rows) => rows.every((row) => row.state === "processed"),
      );
      expect(settled).toEqual([expect.objectContaining({ state: "processed", error: null, attempts: 2 })]);
    });

    it("keeps a new version with the fields that changed when the bank changes an object, through its real webhooks", async () => {
      const receiver = await serveReceiver({
        credentialsOf: async () => credentials,
        store: (environment, notification) => storeNotification(database.db, environment, notification),
      });
      try {
        const states = await ensureSubscriptions(fixture.bank, { environment: "sandbox", receiverUrl: receiver.url("sandbox"), credentials });
        expect(states.filter((state) => state.action === "created" || state.action === "updated").length).toBeGreaterThan(0);
        startWorker();
        const [transfer] = (await fixture.bank.list_network_transfer({ page_size: 1, status: "pending" })).data as Array<{ id: string }>;
        await recordObservations(
          database.db,
          "sandbox",
          [{ resource: "network_transfer", id: transfer!.id, state: await fixture.bank.get_network_transfer(transfer!.id) }],
          { source: "backfill" },
        );
        const note = `index test ${randomBytes(4).toString("hex")}`;
        await fixture.bank.patch_network_transfer(transfer!.id, { userdata: { note } });
        const versions = await readUntil(
          () => versionsOf(transfer!.id),
          (found) => found.length >= 2,
        );
        expect(versions.at(-1)).toMatchObject({ source: "event", changes: expect.arrayContaining([{ path: "updated_at", kind: "changed" }]) });
        expect((versions.at(-1)!.changes as Array<{ path: string }>).map((change) => change.path)).toEqual(
          expect.arrayContaining([expect.stringMatching(/^userdata/)]),
        );
        expect((versions.at(-1)!.state as { userdata: unknown }).userdata).toEqual({ note });
      } finally {
        await worker?.stop();
        await receiver.close();
      }
    });

    it("leaves the latest state when two answers are recorded in the wrong order", async () => {
      const id = `ach_order_${randomBytes(4).toString("hex")}`;
      const older = { id, status: "pending", updated_at: "2026-01-01T00:00:00Z", created_at: "2026-01-01T00:00:00Z" };
      const newer = { ...older, status: "returned", updated_at: "2026-01-01T00:05:00Z" };
      expect(await recordObservations(database.db, "sandbox", [{ resource: "ach", id, state: newer }], { source: "event" })).toEqual(["changed"]);
      expect(await recordObservations(database.db, "sandbox", [{ resource: "ach", id, state: older }], { source: "event" })).toEqual(["older"]);
      expect(await recordObservations(database.db, "sandbox", [{ resource: "ach", id, state: newer }], { source: "event" })).toEqual(["unchanged"]);
      expect((await keptState(id))?.state).toEqual(newer);
      expect((await versionsOf(id)).map((version) => version.version)).toEqual([1]);
    });

    it("records an object the bank no longer has (404) as gone, once", async () => {
      const webhook = (await fixture.bank.create_webhook({ url: "http://127.0.0.1:9/gone", event: "ach.create" })) as { id: string };
      await recordObservations(database.db, "sandbox", [{ resource: "webhook", id: webhook.id, state: webhook as never }], { source: "backfill" });
      await fixture.bank.delete_webhook(webhook.id);
      await store({ event: "webhook.update", op: "update", id: webhook.id, url: `${fixture.sandbox.url}/webhook/${webhook.id}` });
      startWorker();
      await readUntil(
        () => inboxRows(webhook.id),
        (rows) => rows.every((row) => row.state === "processed"),
      );
      expect(await keptState(webhook.id)).toMatchObject({ state: null, goneAt: expect.any(Date), version: 2 });
    });
  });

  describe("subscriptions", () => {
    it("creates one webhook per event, creates nothing on a second run, and re-registers every one after a rotation", async () => {
      // Production's set, pointing nowhere: the sandbox set stays with the receiver the other tests use.
      const url = "http://127.0.0.1:9/api/bank-events/production";
      const first = await ensureReceiverCredentials(database.db, "production", encryptionKey, "test");
      await ensureSubscriptions(fixture.bank, { environment: "production", receiverUrl: url, credentials: first });
      const again = await ensureSubscriptions(fixture.bank, { environment: "production", receiverUrl: url, credentials: first });
      expect(again.map((state) => state.action)).toEqual(subscribedEvents.map(() => "unchanged"));
      const ours = async () => {
        const all = [];
        for await (const webhook of fixture.bank.items("list_webhook", { page_size: 1000 }))
          all.push(webhook as { url: string; event: string; userdata: unknown });
        return all.filter((webhook) => (webhook.userdata as { console_index?: string } | null)?.console_index === "production");
      };
      expect((await ours()).map((webhook) => webhook.event).sort()).toEqual([...subscribedEvents].sort());
      const rotated = await rotateReceiverCredentials(database.db, "production", encryptionKey, "test", 0);
      expect(rotated.keyId).not.toBe(first.keyId);
      expect(rotated.secret).not.toBe(first.secret);
      const states = await ensureSubscriptions(fixture.bank, { environment: "production", receiverUrl: url, credentials: rotated });
      expect(states.map((state) => state.action)).toEqual(subscribedEvents.map(() => "updated"));
      expect((await ours()).length).toBe(subscribedEvents.length);
    });
  });

  describe("backfill", () => {
    it("builds, from an empty index, exactly the bank's lists (ids and latest state) for every resource, resuming from its cursor", async () => {
      const controller = new AbortController();
      // Interrupted after its first pages, then run again: it continues from the kept cursor.
      let pagesRead = 0;
      const counting: BankClient = {
        ...fixture.bank,
        resources: {
          ...fixture.bank.resources,
          list: (...args) => (pagesRead++ === 3 && controller.abort(), fixture.bank.resources.list(...args)),
          listPageAt: (...args) => (pagesRead++ === 3 && controller.abort(), fixture.bank.resources.listPageAt(...args)),
        },
      };
      expect(
        await runBackfill({
          db: database.db,
          client: counting,
          environment: "production",
          pageSize: 40,
          pagesPerSecond: 0,
          log,
          signal: controller.signal,
        }),
      ).toBe("aborted");
      expect(await runBackfill({ db: database.db, client: fixture.bank, environment: "production", pageSize: 40, pagesPerSecond: 0, log })).toBe(
        "done",
      );
      for (const resource of indexedResources) {
        const listed: Array<Record<string, unknown>> = [];
        for await (const item of fixture.bank.items(`list_${resource}` as ListOperationId, { page_size: 1000 }))
          listed.push(item as Record<string, unknown>);
        const indexed = await database.db
          .select({ id: schema.bankObjects.id, state: schema.bankObjects.state })
          .from(schema.bankObjects)
          .where(and(eq(schema.bankObjects.environment, "production"), eq(schema.bankObjects.resource, resource)));
        expect(new Map(indexed.map((row) => [row.id, row.state])), resource).toEqual(new Map(listed.map((item) => [item.id as string, item])));
      }
    });
  });
});
