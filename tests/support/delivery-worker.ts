import { afterAll, afterEach, beforeAll } from "vitest";
import { asc, eq } from "drizzle-orm";
import pino from "pino";
import { defaultSandboxSettings } from "@/sandbox/context";
import { openSandboxDatabase, type SandboxDatabase } from "@/sandbox/db";
import { deliveryAttempts, webhookDeliveries, webhooks } from "@/sandbox/db/webhook-schema";
import { newId } from "@/sandbox/events/emit";
import type { WebhookSettings } from "@/sandbox/webhooks/settings";
import { startDeliveryWorker } from "@/sandbox/webhooks/worker";
import type { TestDatabaseTarget } from "./databases";
import { eventually, startReceiver, type Receiver } from "./webhook-receiver";

/** Retries in milliseconds, a 5 ms poll, loopback allowed: the sandbox's webhook settings for tests. */
export const fastWebhooks: WebhookSettings = {
  retryBaseMs: 20,
  retryCapMs: 80,
  errorThreshold: 1000,
  errorWindowMs: 300_000,
  requestTimeoutMs: 2_000,
  pollIntervalMs: 5,
  refusedConsole: null,
  allowedNetworks: ["127.0.0.0/8", "::1/128"],
};
export const sandboxBaseUrl = "http://sandbox.test";

/**
 * The sandbox's delivery worker against a real database of `target` and a real receiver, for one describe block:
 * `start` runs the worker (stopped after each test, with every webhook removed so a receiver that still fails pulls no
 * later test's events into its retries). Read `db` and `receiver` inside tests (they exist once beforeAll has run).
 */
export function deliveryWorkerFixture(target: TestDatabaseTarget) {
  let drop: () => Promise<void>;
  let database: SandboxDatabase;
  let receiver: Receiver;
  let worker: { stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    database = await openSandboxDatabase(created.url);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await database.db.delete(webhooks);
  });
  afterAll(async () => {
    await receiver?.close();
    await database?.close();
    await drop?.();
  });

  const fixture = {
    get db() {
      return database.db;
    },
    get receiver() {
      return receiver;
    },
    start(settings: Partial<WebhookSettings> = {}) {
      worker = startDeliveryWorker({
        db: database.db,
        baseUrl: sandboxBaseUrl,
        settings: { ...defaultSandboxSettings, webhooks: { ...fastWebhooks, ...settings } },
        log: pino({ level: "silent" }),
        now: () => new Date(),
      });
    },
    /** A webhook to `path` on the shared receiver. */
    addWebhook(path: string, event: string, fields: Partial<typeof webhooks.$inferInsert> = {}) {
      return fixture.addWebhookAt(receiver.url(path), event, fields);
    },
    /** A webhook to any URL, stored as it stands: the worker checks the address at each delivery, not here. */
    async addWebhookAt(url: string, event: string, fields: Partial<typeof webhooks.$inferInsert> = {}) {
      const id = newId("webhook");
      await database.db.insert(webhooks).values({ id, url, event, ...fields });
      return id;
    },
    attemptsOf: (webhookId: string) =>
      database.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.webhookId, webhookId)).orderBy(asc(deliveryAttempts.attempt)),
    /** The webhook's first recorded attempt, once there is one. */
    firstAttemptOf: (webhookId: string) => eventually(async () => (await fixture.attemptsOf(webhookId))[0]),
    webhook: async (id: string) => (await database.db.select().from(webhooks).where(eq(webhooks.id, id)))[0]!,
    deliveryOf: async (webhookId: string) =>
      (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)))[0]!,
    firstAt: (path: string) => eventually(() => receiver.at(path)[0]),
  };
  return fixture;
}
