import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { defaultSandboxSettings } from "@/sandbox/context";
import { events } from "@/sandbox/db/webhook-schema";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import type { TestDatabaseTarget } from "./databases";
import { demoKey, sandboxClient } from "./sandbox-client";
import { eventually, startReceiver, type Receiver } from "./webhook-receiver";

/**
 * An empty sandbox bank on a fresh database of `target`, started once for a describe, with a real receiver
 * subscribed to each of `subscribed` (a webhook per event, delivering to `/<event>`). A failed delivery is retried
 * only after a minute, so it stays pending (or paused) while a test looks at it.
 */
export function sandboxWithReceiver(target: TestDatabaseTarget, subscribed: string[]) {
  let sandbox: RunningSandbox;
  let receiver: Receiver;
  let request: ReturnType<typeof sandboxClient>;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await target.create();
    drop = database.drop;
    receiver = await startReceiver();
    const webhooks = { ...defaultSandboxSettings.webhooks, pollIntervalMs: 10, retryBaseMs: 60_000 };
    sandbox = await startSandbox({ databaseUrl: database.url, seed: "empty", demoKey, settings: { lifecycle: "off", webhooks } });
    request = sandboxClient(sandbox.url, demoKey.id, demoKey.secret);
    for (const event of subscribed) {
      const created = await request("/webhook", { method: "POST", json: { url: receiver.url(`/${event}`), event } });
      expect(created.status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    await receiver?.close();
    await drop?.();
  });

  return {
    get sandbox() {
      return sandbox;
    },
    get receiver() {
      return receiver;
    },
    request: (...args: Parameters<ReturnType<typeof sandboxClient>>) => request(...args),
    /**
     * The events the bank recorded about object `id` (sorted names), once the receiver has been notified of as many:
     * so a test sees both what was emitted and that each of it reached a real receiver.
     */
    async eventsAbout(id: string): Promise<string[]> {
      const recorded = (await sandbox.context.db.select({ name: events.name }).from(events).where(eq(events.objectId, id)))
        .map((row) => row.name)
        .sort();
      const notified = () => receiver.received.filter((notification) => notification.body.id === id).map((notification) => notification.body.event);
      await eventually(() => notified().length >= recorded.length);
      expect(notified().sort()).toEqual(recorded);
      return recorded;
    },
  };
}
