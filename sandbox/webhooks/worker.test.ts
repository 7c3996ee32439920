import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import pino from "pino";
import { defaultSandboxSettings } from "@/sandbox/context";
import { openSandboxDatabase, type SandboxDatabase } from "@/sandbox/db";
import { deliveryAttempts, webhookDeliveries, webhooks } from "@/sandbox/db/webhook-schema";
import { emitEvent, newId } from "@/sandbox/events/emit";
import { testDatabaseTargets } from "@/tests/support/databases";
import { claimDueDeliveries, pauseDeliveries, resumeDeliveries } from "./delivery-store";
import { maxDeliveryAttempts, nominalRetryDelayMs, type WebhookSettings } from "./settings";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";
import { maxReplyBytes } from "./post";
import { startDeliveryWorker } from "./worker";

const fast: WebhookSettings = {
  retryBaseMs: 20,
  retryCapMs: 80,
  errorThreshold: 1000,
  errorWindowMs: 300_000,
  requestTimeoutMs: 2_000,
  pollIntervalMs: 5,
  refusedConsole: null,
  allowedNetworks: ["127.0.0.0/8", "::1/128"],
};
const baseUrl = "http://sandbox.test";

/** The URL of a port nothing listens on (the kernel gave it to us and we closed it). */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/closed`;
}

describe.each(testDatabaseTargets)("delivery worker on $name", (target) => {
  let drop: () => Promise<void>;
  let database: SandboxDatabase;
  let receiver: Receiver;
  let worker: { stop(): Promise<void> } | undefined;

  const start = (settings: Partial<WebhookSettings> = {}) => {
    worker = startDeliveryWorker({
      db: database.db,
      baseUrl,
      settings: { ...defaultSandboxSettings, webhooks: { ...fast, ...settings } },
      log: pino({ level: "silent" }),
      now: () => new Date(),
    });
  };
  const addWebhook = async (path: string, event: string, fields: Partial<typeof webhooks.$inferInsert> = {}) => {
    const id = newId("webhook");
    await database.db.insert(webhooks).values({ id, url: receiver.url(path), event, ...fields });
    return id;
  };
  const attemptsOf = (webhookId: string) =>
    database.db.select().from(deliveryAttempts).where(eq(deliveryAttempts.webhookId, webhookId)).orderBy(asc(deliveryAttempts.attempt));
  const webhook = async (id: string) => (await database.db.select().from(webhooks).where(eq(webhooks.id, id)))[0]!;
  const deliveryOf = async (webhookId: string) =>
    (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)))[0]!;
  const firstAt = (path: string) => eventually(() => receiver.at(path)[0]);

  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    database = await openSandboxDatabase(created.url);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    // Each test subscribes its own webhooks; removing them (their deliveries and attempts go with them) keeps a
    // receiver that still fails from pulling later tests' events into its retries.
    await database.db.delete(webhooks);
  });
  afterAll(async () => {
    await receiver?.close();
    await database?.close();
    await drop?.();
  });

  it("POSTs {event, op, id, url} as JSON with the webhook's Basic credentials", async () => {
    await addWebhook("/auth", "ach.update", { basicUser: "hook-user", basicSecret: "s3cret:with colon" });
    start();
    await emitEvent(database.db, { resource: "ach", op: "update", id: "ach_abc" });
    const notification = await firstAt("/auth");
    expect(notification.body).toEqual({ event: "ach.update", op: "update", id: "ach_abc", url: `${baseUrl}/ach/ach_abc` });
    expect(notification.headers["content-type"]).toBe("application/json");
    expect(notification.headers.authorization).toBe(`Basic ${Buffer.from("hook-user:s3cret:with colon").toString("base64")}`);
  });

  it("sends no Authorization header when the webhook has no credentials, and uses the resource's API path", async () => {
    await addWebhook("/plain", "person_application.create");
    start();
    await emitEvent(database.db, { resource: "person_application", op: "create", id: "apsn_1" });
    const notification = await firstAt("/plain");
    expect(notification.headers.authorization).toBeUndefined();
    expect(notification.body.url).toBe(`${baseUrl}/apply/person_application/apsn_1`);
  });

  it("retries a failing receiver with growing gaps until it answers 200, recording every attempt", async () => {
    const id = await addWebhook("/flaky", "ach.create");
    receiver.respondWith((path, index) => (path === "/flaky" && index < 4 ? 500 : 200));
    start();
    await emitEvent(database.db, { resource: "ach", op: "create", id: "ach_flaky" });
    const attempts = await eventually(async () => {
      const rows = await attemptsOf(id);
      return rows.some((row) => row.succeeded) && rows;
    });
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
      [4, 500, false],
      [5, 200, true],
    ]);
    expect(attempts[0]?.error).toContain("HTTP 500");
    const arrivals = receiver.at("/flaky").map((r) => r.at);
    // A retry never comes before half its nominal delay (equal jitter), and the nominal delay doubles each time.
    for (let retry = 1; retry < arrivals.length; retry += 1) {
      expect(arrivals[retry]! - arrivals[retry - 1]!).toBeGreaterThanOrEqual(nominalRetryDelayMs(fast, retry) / 2 - 1);
    }
    expect(await deliveryOf(id)).toMatchObject({ state: "delivered", attempts: 5 });
  });

  it("keeps with each attempt the body it sent and the start of the receiver's reply, failed or delivered", async () => {
    const id = await addWebhook("/bodies", "ach.update");
    receiver.respondWith((path, index) =>
      path !== "/bodies" ? 200 : index === 0 ? { status: 500, body: "database is down" } : { status: 200, body: '{"received":true}' },
    );
    start();
    await emitEvent(database.db, { resource: "ach", op: "update", id: "ach_bodies" });
    const attempts = await eventually(async () => {
      const rows = await attemptsOf(id);
      return rows.length === 2 && rows;
    });
    const sent = JSON.stringify({ event: "ach.update", op: "update", id: "ach_bodies", url: `${baseUrl}/ach/ach_bodies` });
    expect(attempts.map((a) => [a.statusCode, a.requestBody, a.responseBody])).toEqual([
      [500, sent, "database is down"],
      [200, sent, '{"received":true}'],
    ]);
    // What the receiver got is byte for byte what was kept.
    expect(receiver.at("/bodies").map((r) => JSON.stringify(r.body))).toEqual([sent, sent]);
  });

  it("records a burst delivered at once to two webhooks: every delivery once, delivered at its first attempt", async () => {
    const hooks = [await addWebhook("/burst-a", "ach.create"), await addWebhook("/burst-b", "ach.create")];
    start();
    const objects = Array.from({ length: 40 }, (_, index) => `ach_burst${index}`);
    await Promise.all(objects.map((id) => emitEvent(database.db, { resource: "ach", op: "create", id })));
    for (const hook of hooks) {
      const attempts = await eventually(async () => {
        const rows = await attemptsOf(hook);
        return rows.length >= objects.length && rows;
      });
      expect(attempts.map((attempt) => attempt.objectId).sort()).toEqual([...objects].sort());
      expect(attempts.every((attempt) => attempt.attempt === 1 && attempt.succeeded && attempt.statusCode === 200)).toBe(true);
      const deliveries = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook));
      expect(deliveries.map((delivery) => [delivery.state, delivery.attempts, delivery.lockedUntil])).toEqual(
        objects.map(() => ["delivered", 1, null]),
      );
    }
    expect(receiver.at("/burst-a")).toHaveLength(objects.length);
    expect(receiver.at("/burst-b")).toHaveLength(objects.length);
  });

  it("keeps a reply holding NUL bytes, which PostgreSQL text cannot hold, with each one replaced", async () => {
    const id = await addWebhook("/nul", "ach.update");
    receiver.respondWith((path) => (path === "/nul" ? { status: 200, body: "ok\u0000done" } : 200));
    start();
    await emitEvent(database.db, { resource: "ach", op: "update", id: "ach_nul" });
    const [attempt] = await eventually(async () => ((await attemptsOf(id)).length > 0 ? attemptsOf(id) : undefined));
    expect(attempt).toMatchObject({ succeeded: true, statusCode: 200, responseBody: "ok\uFFFDdone" });
    expect(await deliveryOf(id)).toMatchObject({ state: "delivered", attempts: 1 });
  });

  it("gives up after one try and 15 retries", async () => {
    const id = await addWebhook("/down", "ach.create");
    receiver.respondWith((path) => (path === "/down" ? 503 : 200));
    start();
    await emitEvent(database.db, { resource: "ach", op: "create", id: "ach_down" });
    await eventually(async () => (await deliveryOf(id)).state === "failed");
    expect(await attemptsOf(id)).toHaveLength(maxDeliveryAttempts);
    expect(receiver.at("/down")).toHaveLength(16);
  });

  it("counts only 200 and 202 as acknowledged: 201, 204 and redirects are retried", async () => {
    const statuses = [201, 204, 302, 202];
    const id = await addWebhook("/picky", "fednow.create");
    receiver.respondWith((path, index) => (path === "/picky" ? (statuses[index] ?? 200) : 200));
    start();
    await emitEvent(database.db, { resource: "fednow", op: "create", id: "fednow_1" });
    const attempts = await eventually(async () => {
      const rows = await attemptsOf(id);
      return rows.length === 4 && rows;
    });
    expect(attempts.map((a) => [a.statusCode, a.succeeded])).toEqual([
      [201, false],
      [204, false],
      [302, false],
      [202, true],
    ]);
  });

  it("records a refused connection as an attempt without a status code", async () => {
    const id = await addWebhook("/unused", "card.create", { url: await closedPortUrl() });
    start();
    await emitEvent(database.db, { resource: "card", op: "create", id: "card_1" });
    const attempt = await eventually(async () => (await attemptsOf(id))[0]);
    expect(attempt).toMatchObject({ statusCode: null, succeeded: false, responseBody: null });
    expect(JSON.parse(attempt.requestBody!)).toEqual({ event: "card.create", op: "create", id: "card_1", url: `${baseUrl}/card/card_1` });
    expect(attempt.error).toMatch(/ECONNREFUSED/);
    await database.db.update(webhooks).set({ status: "disabled" }).where(eq(webhooks.id, id));
  });

  it("puts a webhook in error after the threshold of bad responses, stops it, and tells webhook.update subscribers", async () => {
    const failing = await addWebhook("/failing", "counterparty.update");
    await addWebhook("/watcher", "webhook.update");
    receiver.respondWith((path) => (path === "/failing" ? 500 : 200));
    start({ errorThreshold: 3, retryBaseMs: 5, retryCapMs: 5 });
    for (const n of [1, 2, 3, 4]) await emitEvent(database.db, { resource: "counterparty", op: "update", id: `cp_${n}` });
    const notice = await eventually(() => receiver.at("/watcher").find((n) => n.body.id === failing));
    expect(notice.body).toEqual({ event: "webhook.update", op: "update", id: failing, url: `${baseUrl}/webhook/${failing}` });
    const errored = await webhook(failing);
    expect(errored.status).toBe("error");
    expect(errored.error).toContain("3 bad responses");
    // Attempts already in flight when the threshold tripped are still recorded; nothing is sent afterwards.
    const sentWhenErrored = receiver.at("/failing").length;
    await emitEvent(database.db, { resource: "counterparty", op: "update", id: "cp_after" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.at("/failing")).toHaveLength(sentWhenErrored);
    const pending = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, failing));
    // Its undelivered notifications are kept, set aside until a reset.
    expect(pending.filter((d) => d.state === "paused").length).toBeGreaterThan(0);
    expect(pending.filter((d) => d.state === "pending")).toEqual([]);
  });

  it("records an attempt that was in flight when its webhook left enabled, and retries right after the reset", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.respondWith(async (path, index) => {
      if (path === "/held" && index === 0) await held;
      return path === "/held" && index === 0 ? 500 : 200;
    });
    const id = await addWebhook("/held", "card.update");
    // The claim's lease (2 x 5 s + 1 s) outlasts the wait below: only a recorded attempt lets the retry go early.
    start({ requestTimeoutMs: 5_000 });
    await emitEvent(database.db, { resource: "card", op: "update", id: "card_held" });
    await eventually(() => receiver.at("/held").length === 1);
    await database.db.transaction(async (tx) => {
      await tx.update(webhooks).set({ status: "disabled" }).where(eq(webhooks.id, id));
      await pauseDeliveries(tx, id);
    });
    release();
    await eventually(async () => (await attemptsOf(id)).length === 1);
    expect(await deliveryOf(id)).toMatchObject({ state: "paused", attempts: 1, lockedUntil: null });
    await database.db.transaction(async (tx) => {
      await tx.update(webhooks).set({ status: "enabled" }).where(eq(webhooks.id, id));
      await resumeDeliveries(tx, id, new Date());
    });
    await eventually(async () => (await deliveryOf(id)).state === "delivered", 5_000);
  });

  it("sends nothing for disabled webhooks, even for deliveries queued before they were disabled", async () => {
    const id = await addWebhook("/quiet", "deposit_sweep.update");
    await emitEvent(database.db, { resource: "deposit_sweep", op: "update", id: "dsa_queued" });
    await database.db.update(webhooks).set({ status: "disabled" }).where(eq(webhooks.id, id));
    await emitEvent(database.db, { resource: "deposit_sweep", op: "update", id: "dsa_while_disabled" });
    await addWebhook("/control", "deposit_sweep.update");
    start();
    await emitEvent(database.db, { resource: "deposit_sweep", op: "update", id: "dsa_control" });
    await eventually(() => receiver.at("/control").length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.at("/quiet")).toEqual([]);
  });

  it("delivers a claim abandoned by a dead worker once its lease expires", async () => {
    await addWebhook("/abandoned", "card.update");
    await emitEvent(database.db, { resource: "card", op: "update", id: "card_abandoned" });
    const claimed = await claimDueDeliveries(database.db, 100, 300);
    expect(claimed.map((c) => c.objectId)).toContain("card_abandoned");
    expect(await claimDueDeliveries(database.db, 100, 300)).toEqual([]);
    start();
    const notification = await firstAt("/abandoned");
    expect(notification.body.id).toBe("card_abandoned");
  });

  it("reads at most a few KB of a 10 MB reply and cuts the connection", async () => {
    const tenMegabytes = 10 * 1024 * 1024;
    const sent = { bytes: 0, finished: false };
    const big = createServer((request, response) => {
      request.resume();
      response.writeHead(500, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      const pump = () => {
        while (sent.bytes < tenMegabytes && !response.destroyed) {
          sent.bytes += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        if (sent.bytes >= tenMegabytes) response.end(() => (sent.finished = true));
      };
      pump();
    });
    await new Promise<void>((resolve) => big.listen(0, "127.0.0.1", resolve));
    try {
      const id = newId("webhook");
      await database.db.insert(webhooks).values({ id, url: `http://127.0.0.1:${(big.address() as AddressInfo).port}/big`, event: "ach.create" });
      start();
      await emitEvent(database.db, { resource: "ach", op: "create", id: "ach_big" });
      const [attempt] = await eventually(async () => ((await attemptsOf(id)).length > 0 ? attemptsOf(id) : undefined));
      expect(attempt!.error).toMatch(/^HTTP 500: x{200} \(only 200 or 202 acknowledge\)$/);
      expect(attempt!.responseBody).toBe("x".repeat(maxReplyBytes));
      expect(sent.finished).toBe(false);
    } finally {
      big.closeAllConnections();
      await new Promise((resolve) => big.close(resolve));
    }
  });

  it("counts a 200 whose body never ends as delivered once the timeout ends, keeping the reply as far as it came", async () => {
    const slow = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { "content-type": "text/plain" });
      response.write("got it, still talking");
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const id = newId("webhook");
      await database.db.insert(webhooks).values({ id, url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`, event: "ach.create" });
      start({ requestTimeoutMs: 300 });
      await emitEvent(database.db, { resource: "ach", op: "create", id: "ach_slow" });
      const [attempt] = await eventually(async () => ((await attemptsOf(id)).length > 0 ? attemptsOf(id) : undefined));
      expect(attempt).toMatchObject({ attempt: 1, statusCode: 200, succeeded: true, error: null, responseBody: "got it, still talking" });
      expect(await deliveryOf(id)).toMatchObject({ state: "delivered", attempts: 1 });
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it("refuses at delivery a name that resolves to a network no setting allows, and delivers nothing there", async () => {
    const port = Number(new URL(receiver.url("/")).port);
    const hook = newId("webhook");
    // "localhost" passed when the webhook was saved somewhere loopback was allowed; now it is not.
    await database.db.insert(webhooks).values({ id: hook, url: `http://localhost:${port}/internal`, event: "fednow.create" });
    start({ allowedNetworks: [] });
    await emitEvent(database.db, { resource: "fednow", op: "create", id: "fednow_private" });
    const [attempt] = await eventually(async () => ((await attemptsOf(hook)).length > 0 ? attemptsOf(hook) : undefined));
    expect(attempt).toMatchObject({ succeeded: false, statusCode: null });
    expect(attempt!.error).toMatch(/^refused: url http:\/\/localhost:\d+\/internal resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(receiver.at("/internal")).toEqual([]);
  });

  it("refuses targets on the console's own address, and still delivers to other loopback ports", async () => {
    // The shared receiver plays the console; a second one is a local receiver on another loopback port.
    const consolePort = Number(new URL(receiver.url("/")).port);
    const local = await startReceiver();
    try {
      const blocked = newId("webhook");
      await database.db.insert(webhooks).values({ id: blocked, url: `http://localhost:${consolePort}/api/bank/ach`, event: "fednow.create" });
      await database.db.insert(webhooks).values({ id: newId("webhook"), url: local.url("/allowed"), event: "fednow.create" });
      start({ refusedConsole: { host: "127.0.0.1", port: consolePort } });
      await emitEvent(database.db, { resource: "fednow", op: "create", id: "fednow_refused" });
      const [attempt] = await eventually(async () => ((await attemptsOf(blocked)).length > 0 ? attemptsOf(blocked) : undefined));
      expect(attempt).toMatchObject({ succeeded: false, statusCode: null });
      expect(attempt!.error).toMatch(/^refused: url http:\/\/localhost:\d+\/api\/bank\/ach points at the console/);
      expect((await eventually(() => local.at("/allowed")[0])).body.id).toBe("fednow_refused");
      expect(receiver.at("/api/bank/ach")).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
