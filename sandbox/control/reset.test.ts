import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listedResources } from "@/lib/contract";
import { demoSizes } from "@/sandbox/seed";
import { testDatabaseTargets } from "@/tests/support/databases";
import { everyListAndGet } from "@/tests/support/sandbox-answers";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";
import { dataTables } from "./sandbox-data";

const zeroOfEach = Object.fromEntries(Object.keys(demoSizes).map((resource) => [resource, 0]));

describe.each(testDatabaseTargets)("POST /sandbox/reset on $name", (target) => {
  const fixture = sandboxOnDatabase(target, { seed: "empty" });
  const { request } = fixture;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  const reset = (seed: unknown) => request("/sandbox/reset", { method: "POST", json: { seed } });

  /** Leaves a webhook, its deliveries and events, and a changed object behind: what a reset must clear. */
  async function useTheBank() {
    const hook = await request("/webhook", { method: "POST", json: { url: receiver.url("/reset"), event: "network_transfer.update" } });
    expect(hook.status).toBe(201);
    const { data } = (await request("/network_transfer?page_size=1")).body as { data: Array<{ id: string }> };
    if (data[0]) {
      const patched = await request(`/network_transfer/${data[0].id}`, { method: "PATCH", json: { userdata: { touched: true } } });
      expect(patched.status).toBe(200);
      await eventually(() => receiver.at("/reset").some((notification) => notification.body.id === data[0]!.id));
    }
  }

  it("gives the same ids and times twice, dated from the fixed reset instant, whatever happened in between", async () => {
    const first = await reset("demo");
    expect(first).toMatchObject({ status: 200, body: { seed: "demo", loaded: demoSizes } });
    const before = await everyListAndGet(request, { gets: false });
    await useTheBank();
    expect((await reset("demo")).status).toBe(200);
    expect(await everyListAndGet(request, { gets: false })).toEqual(before);

    const newest = (before["/ach"] as Array<{ body: { data: Array<{ created_at: string }> } }>)[0]!.body.data[0]!;
    expect(newest.created_at <= "2026-01-06T15:00:00Z").toBe(true);
    expect((before[listedResources.webhook.path] as Array<{ body: unknown }>)[0]!.body).toEqual({ data: [] });
  }, 120_000);

  it("of empty leaves no row in any table of the bank's data, and the API keys still work", async () => {
    expect((await reset(3)).status).toBe(200);
    await useTheBank();
    expect(await reset("empty")).toMatchObject({ status: 200, body: { seed: "empty", loaded: zeroOfEach } });
    for (const { qualified } of dataTables) {
      const { rows } = await fixture.sandbox.context.database.pool.query<{ count: string }>(`SELECT count(*) FROM ${qualified}`);
      expect({ table: qualified, count: rows[0]!.count }).toEqual({ table: qualified, count: "0" });
    }
    for (const { path } of Object.values(listedResources)) expect((await request(path)).body).toEqual({ data: [] });
  }, 60_000);

  it("with a count loads the demo set with that many ACH transfers", async () => {
    expect(await reset(7)).toMatchObject({ status: 200, body: { seed: 7, loaded: { ...demoSizes, ach: 7 } } });
    expect(((await request("/ach")).body as { data: unknown[] }).data).toHaveLength(7);
  });

  it("puts the clock back to its start", async () => {
    expect((await request("/sandbox/clock/advance", { method: "POST", json: { by: "P3D" } })).status).toBe(200);
    expect((await reset("empty")).status).toBe(200);
    const { now } = (await request("/sandbox/clock")).body as { now: string };
    expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(60_000);
  });

  it.each([
    [{ seed: "nope" }, 'seed must be "demo", "empty" or a whole number of ACH transfers from 0 to 1000000'],
    [{ seed: -1 }, 'seed must be "demo", "empty" or a whole number of ACH transfers from 0 to 1000000'],
    [{ seed: 2.5 }, 'seed must be "demo", "empty" or a whole number of ACH transfers from 0 to 1000000'],
    [{ seed: 1_000_001 }, 'seed must be "demo", "empty" or a whole number of ACH transfers from 0 to 1000000'],
    [{}, 'seed must be "demo", "empty" or a whole number of ACH transfers from 0 to 1000000'],
    [{ seed: "demo", wipe: true }, "unknown field: wipe"],
  ])("refuses %j with a 400 naming the field, and changes nothing", async (body, message) => {
    expect((await reset(2)).status).toBe(200);
    const response = await request("/sandbox/reset", { method: "POST", json: body });
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { error: message } });
    expect(((await request("/ach")).body as { data: unknown[] }).data).toHaveLength(2);
  });

  it("is a 401 without credentials, and changes nothing", async () => {
    expect((await reset(2)).status).toBe(200);
    const response = await request("/sandbox/reset", { method: "POST", json: { seed: "empty" }, headers: { authorization: "" } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: expect.stringMatching(/^Missing credentials/) });
    expect(((await request("/ach")).body as { data: unknown[] }).data).toHaveLength(2);
  });
});
