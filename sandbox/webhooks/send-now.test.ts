import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSandboxSettings } from "@/sandbox/context";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { rows, tables } from "@/tests/support/sandbox-fixtures";
import { testDatabaseTargets } from "@/tests/support/databases";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";

interface Attempt {
  id: string;
  notification_id: string;
  event: string;
  op: string;
  object_id: string;
  attempt: number;
  status_code: number | null;
  succeeded: boolean;
  request_body: string | null;
}
interface Page<T> {
  data: T[];
}

describe.each(testDatabaseTargets)("resend and test notifications on $name", (target) => {
  const fixture = sandboxOnDatabase(target, {
    seed: "empty",
    settings: {
      lifecycle: "off",
      // Retries far apart: a failed notification waits for its next retry for the whole test, so every attempt seen
      // after a resend is the resend's.
      webhooks: { ...defaultSandboxSettings.webhooks, retryBaseMs: 600_000, retryCapMs: 600_000, pollIntervalMs: 5, errorThreshold: 100 },
    },
  });
  const { request } = fixture;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    await fixture.sandbox.context.db.insert(tables.network_transfer).values([1, 2].map((n) => rows.network_transfer(n)));
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  const createHook = async (path: string, event = "network_transfer.update") => {
    const created = await request("/webhook", { method: "POST", json: { url: receiver.url(path), event } });
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  };
  const attempts = async (hookId: string) => ((await request(`/webhook/${hookId}/deliveries`)).body as Page<Attempt>).data;
  const touch = (n: number) =>
    request(`/network_transfer/${rows.network_transfer(n).id}`, { method: "PATCH", json: { userdata: { n, at: Date.now() } } });

  it("every attempt names its notification: a notification's retries share it, another notification has its own", async () => {
    const hookId = await createHook("/grouped");
    receiver.respondWith((path) => (path === "/grouped" ? 500 : 200));
    await touch(1);
    await touch(2);
    const seen = await eventually(async () => {
      const list = await attempts(hookId);
      return list.length === 2 && list;
    });
    expect(new Set(seen.map((attempt) => attempt.notification_id)).size).toBe(2);
    for (const attempt of seen) expect(attempt.notification_id).toMatch(/^dlv_/);
  });

  it("a resend of a failed notification sends exactly one new POST and records one attempt under the same notification", async () => {
    const hookId = await createHook("/resend");
    receiver.respondWith((path, index) => (path === "/resend" && index === 0 ? 500 : 200));
    await touch(1);
    const [failed] = await eventually(async () => {
      const list = await attempts(hookId);
      return list.length === 1 && list;
    });
    expect(failed!.succeeded).toBe(false);
    const postsBefore = receiver.at("/resend").length;

    const resent = await request(`/webhook/${hookId}/notifications/${failed!.notification_id}/resend`, { method: "POST" });

    expect(resent.status).toBe(201);
    const attempt = resent.body as Attempt;
    expect(attempt).toMatchObject({
      notification_id: failed!.notification_id,
      attempt: 2,
      succeeded: true,
      status_code: 200,
      event: "network_transfer.update",
    });
    expect(attempt.request_body).toBe(failed!.request_body);
    expect(receiver.at("/resend").length).toBe(postsBefore + 1);
    expect(receiver.at("/resend").at(-1)!.body).toEqual(JSON.parse(failed!.request_body!));
    const after = await attempts(hookId);
    expect(after.map((row) => [row.notification_id, row.attempt, row.succeeded])).toEqual([
      [failed!.notification_id, 2, true],
      [failed!.notification_id, 1, false],
    ]);
    // Delivered now: its retry, due minutes from now, is not sent. A later notification, due after that retry would
    // have been, arrives alone.
    await request("/sandbox/clock/advance", { method: "POST", json: { by: "PT1H" } });
    await touch(2);
    await eventually(() => receiver.at("/resend").some((received) => received.body.id === rows.network_transfer(2).id));
    expect(receiver.at("/resend").length).toBe(postsBefore + 2);
  });

  it("a resend the receiver refuses is one more failed attempt, nothing else", async () => {
    const hookId = await createHook("/refused");
    receiver.respondWith((path) => (path === "/refused" ? 503 : 200));
    await touch(2);
    const [failed] = await eventually(async () => {
      const list = await attempts(hookId);
      return list.length === 1 && list;
    });
    const resent = await request(`/webhook/${hookId}/notifications/${failed!.notification_id}/resend`, { method: "POST" });
    expect(resent.status).toBe(201);
    expect(resent.body).toMatchObject({ attempt: 2, succeeded: false, status_code: 503 });
    expect(receiver.at("/refused").length).toBe(2);
  });

  it("a test sends one webhook.test notification about the webhook itself, never retried when refused", async () => {
    const hookId = await createHook("/test");
    receiver.respondWith((path) => (path === "/test" ? 500 : 200));
    const tested = await request(`/webhook/${hookId}/test`, { method: "POST" });
    expect(tested.status).toBe(201);
    expect(tested.body).toMatchObject({ event: "webhook.test", op: "test", object_id: hookId, attempt: 1, succeeded: false, status_code: 500 });
    expect(receiver.at("/test").map((received) => received.body)).toEqual([
      { event: "webhook.test", op: "test", id: hookId, url: `${fixture.sandbox.url}/webhook/${hookId}` },
    ]);
    // Hours later, a real notification comes through alone: the test was not retried.
    await request("/sandbox/clock/advance", { method: "POST", json: { by: "PT3H" } });
    await touch(1);
    await eventually(() => receiver.at("/test").length === 2);
    expect(receiver.at("/test").map((received) => received.body.event)).toEqual(["webhook.test", "network_transfer.update"]);
  });

  it("answers 404 for an unknown webhook or notification, 409 for a webhook that is not enabled, 400 for a malformed id", async () => {
    const hookId = await createHook("/refusals");
    expect((await request(`/webhook/webhook_nope/test`, { method: "POST" })).status).toBe(404);
    const unknown = await request(`/webhook/${hookId}/notifications/dlv_nope/resend`, { method: "POST" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: `Webhook ${hookId} has no notification dlv_nope` });
    expect((await request(`/webhook/${hookId}/notifications/${"x".repeat(300)}/resend`, { method: "POST" })).status).toBe(400);
    await request(`/webhook/${hookId}`, { method: "PATCH", json: { status: "disabled" } });
    const disabled = await request(`/webhook/${hookId}/test`, { method: "POST" });
    expect(disabled.status).toBe(409);
    expect((disabled.body as { error: string }).error).toContain("enable it");
    expect(receiver.at("/refusals")).toHaveLength(0);
  });
});
