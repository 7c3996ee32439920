import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { webhookDeliveries, webhooks } from "@/sandbox/db/webhook-schema";
import { emitEvent } from "@/sandbox/events/emit";
import { testDatabaseTargets } from "@/tests/support/databases";
import { deliveryWorkerFixture, fastWebhooks, sandboxBaseUrl } from "@/tests/support/delivery-worker";
import { eventually } from "@/tests/support/webhook-receiver";
import { claimDueDeliveries, pauseDeliveries, resumeDeliveries } from "./delivery-store";
import { maxDeliveryAttempts, nominalRetryDelayMs } from "./settings";

// When the worker sends and how it records: retries, giving up, what counts as acknowledged, the error threshold,
// paused and disabled webhooks, leases, bursts. What it sends, where to, and what it keeps of a reply:
// sending.test.ts.

/** The URL of a port nothing listens on (the kernel gave it to us and we closed it). */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/closed`;
}

describe.each(testDatabaseTargets)("delivery worker on $name", (target) => {
  const fixture = deliveryWorkerFixture(target);
  const { start, addWebhook, attemptsOf, webhook, deliveryOf, firstAt } = fixture;
  const db = () => fixture.db;

  it("retries a failing receiver with growing gaps until it answers 200, recording every attempt", async () => {
    const id = await addWebhook("/flaky", "ach.create");
    fixture.receiver.respondWith((path, index) => (path === "/flaky" && index < 4 ? 500 : 200));
    start();
    await emitEvent(db(), { resource: "ach", op: "create", id: "ach_flaky" });
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
    const arrivals = fixture.receiver.at("/flaky").map((r) => r.at);
    // A retry never comes before half its nominal delay (equal jitter), and the nominal delay doubles each time.
    for (let retry = 1; retry < arrivals.length; retry += 1) {
      expect(arrivals[retry]! - arrivals[retry - 1]!).toBeGreaterThanOrEqual(nominalRetryDelayMs(fastWebhooks, retry) / 2 - 1);
    }
    expect(await deliveryOf(id)).toMatchObject({ state: "delivered", attempts: 5 });
  });

  it("records a burst delivered at once to two webhooks: every delivery once, delivered at its first attempt", async () => {
    const hooks = [await addWebhook("/burst-a", "ach.create"), await addWebhook("/burst-b", "ach.create")];
    start();
    const objects = Array.from({ length: 40 }, (_, index) => `ach_burst${index}`);
    await Promise.all(objects.map((id) => emitEvent(db(), { resource: "ach", op: "create", id })));
    for (const hook of hooks) {
      const attempts = await eventually(async () => {
        const rows = await attemptsOf(hook);
        return rows.length >= objects.length && rows;
      });
      expect(attempts.map((attempt) => attempt.objectId).sort()).toEqual([...objects].sort());
      expect(attempts.every((attempt) => attempt.attempt === 1 && attempt.succeeded && attempt.statusCode === 200)).toBe(true);
      const deliveries = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook));
      expect(deliveries.map((delivery) => [delivery.state, delivery.attempts, delivery.lockedUntil])).toEqual(
        objects.map(() => ["delivered", 1, null]),
      );
    }
    expect(fixture.receiver.at("/burst-a")).toHaveLength(objects.length);
    expect(fixture.receiver.at("/burst-b")).toHaveLength(objects.length);
  });

  it("gives up after one try and 15 retries", async () => {
    const id = await addWebhook("/down", "ach.create");
    fixture.receiver.respondWith((path) => (path === "/down" ? 503 : 200));
    start();
    await emitEvent(db(), { resource: "ach", op: "create", id: "ach_down" });
    await eventually(async () => (await deliveryOf(id)).state === "failed");
    expect(await attemptsOf(id)).toHaveLength(maxDeliveryAttempts);
    expect(fixture.receiver.at("/down")).toHaveLength(16);
  });

  it("counts only 200 and 202 as acknowledged: 201, 204 and redirects are retried", async () => {
    const statuses = [201, 204, 302, 202];
    const id = await addWebhook("/picky", "fednow.create");
    fixture.receiver.respondWith((path, index) => (path === "/picky" ? (statuses[index] ?? 200) : 200));
    start();
    await emitEvent(db(), { resource: "fednow", op: "create", id: "fednow_1" });
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
    await emitEvent(db(), { resource: "card", op: "create", id: "card_1" });
    const attempt = await eventually(async () => (await attemptsOf(id))[0]);
    expect(attempt).toMatchObject({ statusCode: null, succeeded: false, responseBody: null });
    expect(JSON.parse(attempt.requestBody!)).toEqual({ event: "card.create", op: "create", id: "card_1", url: `${sandboxBaseUrl}/card/card_1` });
    expect(attempt.error).toMatch(/ECONNREFUSED/);
    await db().update(webhooks).set({ status: "disabled" }).where(eq(webhooks.id, id));
  });

  it("puts a webhook in error after the threshold of bad responses, stops it, and tells webhook.update subscribers", async () => {
    const failing = await addWebhook("/failing", "counterparty.update");
    await addWebhook("/watcher", "webhook.update");
    fixture.receiver.respondWith((path) => (path === "/failing" ? 500 : 200));
    start({ errorThreshold: 3, retryBaseMs: 5, retryCapMs: 5 });
    for (const n of [1, 2, 3, 4]) await emitEvent(db(), { resource: "counterparty", op: "update", id: `cp_${n}` });
    const notice = await eventually(() => fixture.receiver.at("/watcher").find((n) => n.body.id === failing));
    expect(notice.body).toEqual({ event: "webhook.update", op: "update", id: failing, url: `${sandboxBaseUrl}/webhook/${failing}` });
    const errored = await webhook(failing);
    expect(errored.status).toBe("error");
    expect(errored.error).toContain("3 bad responses");
    // Attempts already in flight when the threshold tripped are still recorded; nothing is sent afterwards.
    const sentWhenErrored = fixture.receiver.at("/failing").length;
    await emitEvent(db(), { resource: "counterparty", op: "update", id: "cp_after" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fixture.receiver.at("/failing")).toHaveLength(sentWhenErrored);
    const pending = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, failing));
    // Its undelivered notifications are kept, set aside until a reset.
    expect(pending.filter((d) => d.state === "paused").length).toBeGreaterThan(0);
    expect(pending.filter((d) => d.state === "pending")).toEqual([]);
  });

  it("records an attempt that was in flight when its webhook left enabled, and retries right after the reset", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    fixture.receiver.respondWith(async (path, index) => {
      if (path === "/held" && index === 0) await held;
      return path === "/held" && index === 0 ? 500 : 200;
    });
    const id = await addWebhook("/held", "card.update");
    // The claim's lease (2 x 5 s + 1 s) outlasts the wait below: only a recorded attempt lets the retry go early.
    start({ requestTimeoutMs: 5_000 });
    await emitEvent(db(), { resource: "card", op: "update", id: "card_held" });
    await eventually(() => fixture.receiver.at("/held").length === 1);
    await db().transaction(async (tx) => {
      await tx.update(webhooks).set({ status: "disabled" }).where(eq(webhooks.id, id));
      await pauseDeliveries(tx, id);
    });
    release();
    await eventually(async () => (await attemptsOf(id)).length === 1);
    expect(await deliveryOf(id)).toMatchObject({ state: "paused", attempts: 1, lockedUntil: null });
    await db().transaction(async (tx) => {
      await tx.update(webhooks).set({ status: "enabled" }).where(eq(webhooks.id, id));
      await resumeDeliveries(tx, id, new Date());
    });
    await eventually(async () => (await deliveryOf(id)).state === "delivered", 5_000);
  });

  it("sends nothing for disabled webhooks, even for deliveries queued before they were disabled", async () => {
    const id = await addWebhook("/quiet", "deposit_sweep.update");
    await emitEvent(db(), { resource: "deposit_sweep", op: "update", id: "dsa_queued" });
    await db().update(webhooks).set({ status: "disabled" }).where(eq(webhooks.id, id));
    await emitEvent(db(), { resource: "deposit_sweep", op: "update", id: "dsa_while_disabled" });
    await addWebhook("/control", "deposit_sweep.update");
    start();
    await emitEvent(db(), { resource: "deposit_sweep", op: "update", id: "dsa_control" });
    await eventually(() => fixture.receiver.at("/control").length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fixture.receiver.at("/quiet")).toEqual([]);
  });

  it("delivers a claim abandoned by a dead worker once its lease expires", async () => {
    await addWebhook("/abandoned", "card.update");
    await emitEvent(db(), { resource: "card", op: "update", id: "card_abandoned" });
    // A second ahead: the delivery is due at the database's now(), in microseconds, which a JavaScript Date of the
    // same millisecond would precede.
    const soon = new Date(Date.now() + 1_000);
    const claimed = await claimDueDeliveries(db(), 100, 300, soon);
    expect(claimed.map((c) => c.objectId)).toContain("card_abandoned");
    expect(await claimDueDeliveries(db(), 100, 300, soon)).toEqual([]);
    start();
    const notification = await firstAt("/abandoned");
    expect(notification.body.id).toBe("card_abandoned");
  });
});
