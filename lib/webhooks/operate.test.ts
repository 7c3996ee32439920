import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiverUsername } from "@/lib/index/console-webhooks";
import { testDatabaseTargets } from "@/tests/support/databases";
import { bankKey, proxyHarness, staff, startProxyBank } from "@/tests/support/proxy-harness";
import { sandboxClient } from "@/tests/support/sandbox-client";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";

// Operating a webhook from the console (docs/webhooks.md, "Resend and test"): through the console's bank proxy, in
// front of the real sandbox bank, to a real receiver over HTTP, with the audit trail on every database target.

const bank = startProxyBank();

interface Attempt {
  id: string;
  notification_id: string;
  attempt: number;
  succeeded: boolean;
  event: string;
  status_code: number | null;
}

describe.each(testDatabaseTargets)("resending and testing webhooks through the console, audit trail on $name", (target) => {
  const { session, callProxy, recordsOf, expectedRecord } = proxyHarness(bank, target);
  let receiver: Receiver;
  let control: ReturnType<typeof sandboxClient>;

  beforeAll(async () => {
    receiver = await startReceiver();
    control = sandboxClient(bank.recording.url, bankKey.id, bankKey.secret);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /**
   * A webhook to the receiver at `path` with one failed notification: the delivery worker's attempts are dropped by a
   * sandbox fault (never sent, so every POST the receiver sees is a resend's), removed again by the returned function.
   */
  async function failedNotification(path: string) {
    const fault = (await control("/sandbox/faults", { method: "POST", json: { webhooks: "drop" } })).body as { id: string };
    const hook = await bank.direct.create_webhook({ url: receiver.url(path), event: "webhook.update" });
    await bank.direct.patch_webhook(hook.id, { userdata: { touched: true } });
    const failed = await eventually(async () => (await bank.direct.list_webhook_deliveries(hook.id, { page_size: 1 })).data[0]);
    return { hook, failed, removeFault: () => control(`/sandbox/faults/${fault.id}`, { method: "DELETE" }) };
  }

  it("a resend of a failed delivery sends exactly one new POST to the receiver and adds one attempt under its notification", async () => {
    const { hook, failed, removeFault } = await failedNotification("/resend-once");
    try {
      expect(failed.succeeded).toBe(false);
      expect(receiver.at("/resend-once")).toHaveLength(0);

      const response = await callProxy("POST", `/webhook/${hook.id}/notifications/${failed.notification_id}/resend`);

      expect(response.status).toBe(201);
      const attempt = response.json as unknown as Attempt;
      expect(attempt).toMatchObject({ notification_id: failed.notification_id, succeeded: true, status_code: 200 });
      expect(receiver.at("/resend-once").map((received) => received.body)).toEqual([JSON.parse(failed.request_body!)]);
      const listed = (await bank.direct.list_webhook_deliveries(hook.id, { page_size: 100 })).data;
      expect(listed.filter((row) => row.succeeded).map((row) => row.id)).toEqual([attempt.id]);
      expect(new Set(listed.map((row) => row.notification_id))).toEqual(new Set([failed.notification_id]));
      expect(await recordsOf(response)).toEqual([
        expectedRecord(response, {
          action: "webhook.notification.resend",
          targetId: hook.id,
          before: null,
          after: response.json,
          outcome: "succeeded",
          error: null,
        }),
      ]);
    } finally {
      await removeFault();
    }
  });

  it("a test sends one webhook.test notification to the receiver, audited with the webhook as it was", async () => {
    const hook = await bank.direct.create_webhook({ url: receiver.url("/tested"), event: "ach.update" });
    const response = await callProxy("POST", `/webhook/${hook.id}/test`);
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ event: "webhook.test", op: "test", object_id: hook.id, succeeded: true });
    expect(receiver.at("/tested").map((received) => received.body.event)).toEqual(["webhook.test"]);
    expect(await recordsOf(response)).toEqual([
      expectedRecord(response, { action: "webhook.test", targetId: hook.id, before: hook, after: response.json, outcome: "succeeded", error: null }),
    ]);
  });

  it("refuses both to a role without webhook:write (403) and signed out (401), sending nothing", async () => {
    const hook = await bank.direct.create_webhook({ url: receiver.url("/refused"), event: "ach.update" });
    session.user = staff("viewer");
    expect((await callProxy("POST", `/webhook/${hook.id}/test`)).status).toBe(403);
    expect((await callProxy("POST", `/webhook/${hook.id}/notifications/dlv_x/resend`)).status).toBe(403);
    session.user = null;
    expect((await callProxy("POST", `/webhook/${hook.id}/test`)).status).toBe(401);
    expect(receiver.at("/refused")).toHaveLength(0);
  });

  it("answers the bank's 404 for an unknown notification and its 409 for a disabled webhook, as clear 4xx", async () => {
    const hook = await bank.direct.create_webhook({ url: receiver.url("/disabled"), event: "ach.update" });
    const unknown = await callProxy("POST", `/webhook/${hook.id}/notifications/dlv_unknown/resend`);
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.json)).toContain("has no notification dlv_unknown");
    await bank.direct.patch_webhook(hook.id, { status: "disabled" });
    const disabled = await callProxy("POST", `/webhook/${hook.id}/test`);
    expect(disabled.status).toBeGreaterThanOrEqual(400);
    expect(disabled.status).toBeLessThan(500);
    expect(JSON.stringify(disabled.json)).toContain("enable it");
    expect(receiver.at("/disabled")).toHaveLength(0);
  });

  it("refuses a test of the console's own subscription (its receiver answers bank events only)", async () => {
    const own = await bank.direct.create_webhook({ url: receiver.url("/own"), event: "ach.update", basic_user: receiverUsername("sandbox") });
    const response = await callProxy("POST", `/webhook/${own.id}/test`);
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: "console_webhook" } });
    expect(receiver.at("/own")).toHaveLength(0);
  });
});
