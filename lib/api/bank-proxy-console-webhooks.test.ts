import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConsoleError } from "@/lib/api/errors";
import { bankProxyResolver } from "@/lib/api/bank-proxy";
import { testDatabaseTargets } from "@/tests/support/databases";
import { proxyHarness, staff, startProxyBank } from "@/tests/support/proxy-harness";

// The console's own subscriptions (lib/index/console-webhooks.ts) carry its receiver's secret: the proxy refuses every
// change of one, and every change that would make a webhook one, whatever the role; only the index settings change them.

const bank = startProxyBank();

/** The console's address as the bank reaches it (a name that does not resolve: the sandbox accepts it unchecked). */
const consoleAddress = "https://console.example";

/** A subscription as the console registers it (lib/index/subscriptions.ts): its receiver, its Basic user and secret. */
const consoleSubscription = () =>
  bank.direct.create_webhook({
    url: `${consoleAddress}/api/bank-events/sandbox`,
    event: "network_transfer.update",
    basic_user: "console-sandbox",
    basic_secret: `receiver-secret-${randomUUID()}`,
    userdata: { console_index: "sandbox", receiver_key: "rcv_test" },
  });

const elsewhere = () => `https://hooks.example/${randomUUID()}`;

describe.each(testDatabaseTargets)("the console's own webhooks through the bank proxy, audit trail on $name", (target) => {
  const { session, callProxy, proxyWith, dependencies, recordsOf, sentToBank } = proxyHarness(bank, target);
  const guarded = proxyWith({ consoleAddress: () => consoleAddress });

  describe.each([
    ["operations", "PATCH", { url: "https://receiver.attacker.example/steal" }],
    ["admin", "PATCH", { url: "https://receiver.attacker.example/steal" }],
    ["operations", "PATCH", { status: "disabled" }],
    ["operations", "PATCH", { basic_secret: "chosen-by-someone-else" }],
    ["admin", "DELETE", undefined],
  ] as const)("as %s, %s %j", (role, method, body) => {
    it("answers 403 console_webhook, sends no change to the bank, writes no audit record, and the subscription is unchanged", async () => {
      const subscription = await consoleSubscription();
      session.user = staff(role);
      const response = await callProxy(method, `/webhook/${subscription.id}`, { body, through: guarded });
      expect(response.status).toBe(403);
      expect(response.json).toEqual({ error: { code: "console_webhook", message: expect.stringContaining("Index of the bank") } });
      expect(sentToBank()).toEqual([`GET /webhook/${subscription.id}`]);
      expect(await recordsOf(response)).toEqual([]);
      expect(await bank.direct.get_webhook(subscription.id)).toEqual(subscription);
    });
  });

  it("knows a webhook pointing at the console's receiver by its url alone, and one carrying the console's Basic user by that alone", async () => {
    const byUrl = await bank.direct.create_webhook({ url: `${consoleAddress}/api/bank-events/production`, event: "ach.update" });
    const byUser = await bank.direct.create_webhook({ url: elsewhere(), event: "ach.update", basic_user: "console-production" });
    for (const hook of [byUrl, byUser]) {
      const response = await callProxy("PATCH", `/webhook/${hook.id}`, { body: { status: "disabled" }, through: guarded });
      expect(response.status).toBe(403);
      expect(response.json).toMatchObject({ error: { code: "console_webhook" } });
      expect(await recordsOf(response)).toEqual([]);
    }
    expect(sentToBank()).toEqual([`GET /webhook/${byUrl.id}`, `GET /webhook/${byUser.id}`]);
  });

  it.each([
    ["pointing at the console's receiver", { url: `${consoleAddress}/api/bank-events/sandbox`, event: "ach.update" }],
    ["the same receiver spelled with a trailing slash", { url: `${consoleAddress}/api/bank-events/sandbox/`, event: "ach.update" }],
    [
      "carrying the console's Basic user",
      { url: "https://hooks.example/x", event: "ach.update", basic_user: "console-sandbox", basic_secret: "guess" },
    ],
  ])("refuses creating a webhook %s: 403, nothing sent, no audit record", async (_name, body) => {
    const response = await callProxy("POST", "/webhook", { body, through: guarded });
    expect(response.status).toBe(403);
    expect(response.json).toEqual({ error: { code: "console_webhook", message: expect.stringContaining("basic_user") } });
    expect(sentToBank()).toEqual([]);
    expect(await recordsOf(response)).toEqual([]);
  });

  it.each([
    ["to the console's receiver", { url: `${consoleAddress}/api/bank-events/sandbox` }],
    ["to the console's Basic user", { basic_user: "console-sandbox" }],
  ])("refuses changing another webhook %s, and the webhook keeps its url and user", async (_name, body) => {
    const hook = await bank.direct.create_webhook({ url: elsewhere(), event: "ach.update", basic_user: "partner" });
    const response = await callProxy("PATCH", `/webhook/${hook.id}`, { body, through: guarded });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: "console_webhook" } });
    expect(sentToBank()).toEqual([`GET /webhook/${hook.id}`]);
    expect(await recordsOf(response)).toEqual([]);
    expect(await bank.direct.get_webhook(hook.id)).toEqual(hook);
  });

  it("still changes a webhook of someone else at another path of the console's host", async () => {
    const hook = await bank.direct.create_webhook({ url: `${consoleAddress}/hooks/partner`, event: "ach.update" });
    const response = await callProxy("PATCH", `/webhook/${hook.id}`, { body: { status: "disabled" }, through: guarded });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id: hook.id, status: "disabled" });
  });

  it("refuses before holding where four-eyes is on: no change request is made", async () => {
    const subscription = await consoleSubscription();
    const held: unknown[] = [];
    const fourEyes = proxyWith({
      consoleAddress: () => consoleAddress,
      approvals: {
        required: async () => true,
        holdBank: async (_maker, _requestId, change) => {
          held.push(change);
          return { approval: { id: "apr_never" } } as never;
        },
      },
    });
    const response = await callProxy("PATCH", `/webhook/${subscription.id}`, { body: { url: elsewhere() }, through: fourEyes });
    expect(response.status).toBe(403);
    expect(held).toEqual([]);
  });

  it("refuses sending an approved change of one: the subscription is checked again when the change goes out", async () => {
    const subscription = await consoleSubscription();
    const proxy = bankProxyResolver({ ...dependencies(), consoleAddress: () => consoleAddress });
    const sending = proxy.sendApproved(
      { environment: "sandbox", operationId: "patch_webhook", params: { id: subscription.id }, body: { url: elsewhere() } },
      staff("admin"),
      `req_${randomUUID()}`,
    );
    await expect(sending).rejects.toMatchObject({ status: 403, code: "console_webhook" } satisfies Partial<ConsoleError>);
    expect(await bank.direct.get_webhook(subscription.id)).toEqual(subscription);
  });
});
