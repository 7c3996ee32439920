import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultSandboxSettings } from "@/sandbox/context";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { testDatabaseTargets } from "@/tests/support/databases";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { rows, tables } from "@/tests/support/sandbox-fixtures";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";

interface Attempt {
  attempt: number;
  succeeded: boolean;
  status_code: number | null;
  error: string | null;
  attempted_at: string;
}

// Webhook faults (POST /sandbox/faults with `webhooks`) seen at a real receiver and in the delivery history.

describe.each(testDatabaseTargets)("webhook faults on $name", (target) => {
  let sandbox: RunningSandbox;
  let drop: () => Promise<void>;
  let receiver: Receiver;
  let request: ReturnType<typeof sandboxClient>;

  /** A webhook of network_transfer.update to the receiver at `path`, a fault, then one change of a transfer. */
  const notifyWith = async (path: string, fault: Record<string, unknown>) => {
    const hook = await request("/webhook", { method: "POST", json: { url: receiver.url(path), event: "network_transfer.update" } });
    expect(hook.status).toBe(201);
    const created = await request("/sandbox/faults", { method: "POST", json: fault });
    expect(created.status).toBe(201);
    const changedAt = Date.now();
    expect((await request("/network_transfer/nt_fixture1", { method: "PATCH", json: { userdata: { path } } })).status).toBe(200);
    return { webhookId: (hook.body as { id: string }).id, faultId: (created.body as { id: string }).id, changedAt };
  };
  /** The webhook's delivery history, oldest first. */
  const history = async (webhookId: string) => ((await request(`/webhook/${webhookId}/deliveries`)).body as { data: Attempt[] }).data.reverse();

  beforeAll(async () => {
    const database = await target.create();
    drop = database.drop;
    receiver = await startReceiver();
    sandbox = await startSandbox({
      databaseUrl: database.url,
      seed: "empty",
      demoKey,
      settings: { webhooks: { ...defaultSandboxSettings.webhooks, retryBaseMs: 10, retryCapMs: 40, pollIntervalMs: 5 } },
    });
    request = sandboxClient(sandbox.url, demoKey.id, demoKey.secret);
    await sandbox.context.db.insert(tables.network_transfer).values(rows.network_transfer(1));
  }, 120_000);
  afterEach(async () => {
    await request("/sandbox/faults", { method: "DELETE" });
    const hooks = (await request("/webhook")).body as { data: { id: string }[] };
    for (const hook of hooks.data) await request(`/webhook/${hook.id}`, { method: "DELETE" });
  });
  afterAll(async () => {
    await sandbox?.close();
    await receiver?.close();
    await drop?.();
  });

  it("drop: records a failed attempt without sending, and the retry delivers once the fault is used up", async () => {
    const { webhookId, faultId } = await notifyWith("/dropped", { webhooks: "drop", times: 1 });
    await eventually(() => receiver.at("/dropped").length === 1);
    const attempts = await eventually(async () => {
      const all = await history(webhookId);
      return all.length === 2 && all;
    });
    expect(attempts.map(({ attempt, succeeded, status_code, error }) => ({ attempt, succeeded, status_code, error }))).toEqual([
      { attempt: 1, succeeded: false, status_code: null, error: `dropped by sandbox fault ${faultId}: not sent` },
      { attempt: 2, succeeded: true, status_code: 200, error: null },
    ]);
    expect(receiver.at("/dropped")).toHaveLength(1);
  });

  it("delay: the notification arrives delay_ms later, in one attempt", async () => {
    const { webhookId, changedAt } = await notifyWith("/delayed", { webhooks: "delay", delay_ms: 600 });
    const [arrived] = await eventually(() => receiver.at("/delayed").length === 1 && receiver.at("/delayed"));
    const arrivedAt = performance.timeOrigin + arrived!.at;
    expect(arrivedAt - changedAt).toBeGreaterThanOrEqual(600);
    const attempts = await eventually(async () => {
      const all = await history(webhookId);
      return all.length === 1 && all;
    });
    expect(attempts[0]).toMatchObject({ attempt: 1, succeeded: true, status_code: 200 });
    // attempted_at has whole seconds (the API's format), so it is compared with the second the delay ended in.
    expect(Date.parse(attempts[0]!.attempted_at)).toBeGreaterThanOrEqual(Math.floor((changedAt + 600) / 1000) * 1000);
  });

  it("duplicate: the receiver gets the notification twice, each a delivered attempt, and a duplicate is never duplicated again", async () => {
    const { webhookId } = await notifyWith("/twice", { webhooks: "duplicate" });
    const received = await eventually(() => receiver.at("/twice").length === 2 && receiver.at("/twice"));
    expect(received[1]!.body).toEqual(received[0]!.body);
    expect(received[0]!.body).toMatchObject({ event: "network_transfer.update", op: "update", id: "nt_fixture1" });
    const attempts = await eventually(async () => {
      const all = await history(webhookId);
      return all.length === 2 && all;
    });
    expect(attempts.map(({ attempt, succeeded }) => ({ attempt, succeeded }))).toEqual([
      { attempt: 1, succeeded: true },
      { attempt: 1, succeeded: true },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at("/twice")).toHaveLength(2);
  });
});
