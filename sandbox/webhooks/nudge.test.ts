import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSandboxSettings } from "@/sandbox/context";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";

/**
 * A change made through the API wakes this process's delivery worker once committed, so its notifications leave at
 * once rather than at the next poll. The poll here is a minute: every notification below arrives long before it.
 */
describe.each(testDatabaseTargets)("notifications of an API change on $name", (target) => {
  const webhooks = { ...defaultSandboxSettings.webhooks, pollIntervalMs: 60_000 };
  const fixture = sandboxOnDatabase(target, { seed: "empty", settings: { webhooks } });
  const { request } = fixture;
  let receiver: Receiver;
  const withinMs = 5_000;

  beforeAll(async () => {
    receiver = await startReceiver();
    expect((await request("/webhook", { method: "POST", json: { url: receiver.url("/ach"), event: "ach.update" } })).status).toBe(201);
    expect((await request("/sandbox/counterparty", { method: "POST", json: {} })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  const createAch = async () => ((await request("/sandbox/ach", { method: "POST", json: {} })).body as { id: string }).id;
  const notificationsOf = (id: string) => receiver.at("/ach").filter((notification) => notification.body.id === id);

  it("leave as soon as a transition is committed, without waiting for the worker's poll", async () => {
    const id = await createAch();
    expect((await request(`/sandbox/ach/${id}/transition`, { method: "POST", json: { to: "returned", error: "R01" } })).status).toBe(200);
    await eventually(() => notificationsOf(id).length === 2, withinMs);
  });

  it("leave as soon as a change through the bank's own API is committed", async () => {
    expect((await request("/webhook", { method: "POST", json: { url: receiver.url("/wire"), event: "network_transfer.update" } })).status).toBe(201);
    const { id } = (await request("/sandbox/network_transfer", { method: "POST", json: {} })).body as { id: string };
    expect((await request(`/network_transfer/${id}`, { method: "PATCH", json: { userdata: { checked: true } } })).status).toBe(200);
    await eventually(() => receiver.at("/wire").some((notification) => notification.body.id === id), withinMs);
  });
});
