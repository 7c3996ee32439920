import { afterEach, describe, expect, it } from "vitest";
import { timestampPattern } from "@/lib/contract";
import { defaultSandboxSettings, type SandboxSettings } from "@/sandbox/context";
import { startSandbox } from "@/sandbox/server";
import { testDatabaseTargets } from "@/tests/support/databases";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { rows, tables } from "@/tests/support/sandbox-fixtures";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";
import { BASE_STEP_MS } from "../lifecycle/engine";
import { parseIsoDuration } from "@/lib/contract/sandbox-control";

const DAY_MS = 86_400_000;
const apiTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

describe("parseIsoDuration", () => {
  it("reads weeks, days, hours, minutes and (fractional) seconds, a day being 24 hours", () => {
    expect(parseIsoDuration("P1W")).toEqual({ ms: 7 * DAY_MS });
    expect(parseIsoDuration("P1DT1H30M")).toEqual({ ms: DAY_MS + 90 * 60_000 });
    expect(parseIsoDuration("PT0.5S")).toEqual({ ms: 500 });
  });
});

// Each test starts its own sandbox on a fresh database, so each clock starts at the wall clock and tests stay
// independent in any order.
describe.each(testDatabaseTargets)("the sandbox clock on $name", (target) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function freshDatabase() {
    const database = await target.create();
    cleanups.push(database.drop);
    return database.url;
  }

  async function start(databaseUrl: string, settings: Partial<SandboxSettings> = {}) {
    const sandbox = await startSandbox({ databaseUrl, seed: "empty", demoKey, settings });
    cleanups.push(() => sandbox.close());
    return { sandbox, request: sandboxClient(sandbox.url, demoKey.id, demoKey.secret) };
  }

  async function receiver(): Promise<Receiver> {
    const started = await startReceiver();
    cleanups.push(started.close);
    return started;
  }

  const clockOf = async (request: ReturnType<typeof sandboxClient>) => {
    const answer = await request("/sandbox/clock");
    expect(answer.status).toBe(200);
    return Date.parse((answer.body as { now: string }).now);
  };
  const advance = (request: ReturnType<typeof sandboxClient>, by: unknown) => request("/sandbox/clock/advance", { method: "POST", json: { by } });

  it("starts at the wall clock, in the API's time format", async () => {
    const { request } = await start(await freshDatabase());
    const answer = await request("/sandbox/clock");
    expect(answer.status).toBe(200);
    const { now } = answer.body as { now: string };
    expect(Object.keys(answer.body as object)).toEqual(["now"]);
    expect(now).toMatch(timestampPattern);
    expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(2000);
  }, 60_000);

  it("answers an advance with the new time, which GET then reads", async () => {
    const { request } = await start(await freshDatabase());
    const before = await clockOf(request);
    const advanced = await advance(request, "P1DT2H");
    expect(advanced.status).toBe(200);
    const now = Date.parse((advanced.body as { now: string }).now);
    expect(now - before).toBeGreaterThanOrEqual(DAY_MS + 2 * 3_600_000);
    expect(now - before).toBeLessThan(DAY_MS + 2 * 3_600_000 + 2000);
    expect((await clockOf(request)) - now).toBeLessThan(2000);
  }, 60_000);

  it("moves pending ACH transfers through a day of the lifecycle at once, each step and event as the engine takes them", async () => {
    const { sandbox, request } = await start(await freshDatabase(), { lifecycle: "on", lifecycleSpeed: 1 });
    const hooks = await receiver();
    const created = await request("/webhook", { method: "POST", json: { url: hooks.url("/ach"), event: "ach.update" } });
    expect(created.status).toBe(201);
    // Fresh transfers: not due for a full step (a minute at speed 1), so nothing moves until the clock is advanced.
    const madeAt = sandbox.context.now();
    const fresh = { created_at: madeAt, updated_at: madeAt };
    await sandbox.context.db.insert(tables.ach).values([rows.ach(1, { ...fresh, amount: "10.00" }), rows.ach(2, { ...fresh, amount: "10.13" })]);

    const advanced = await advance(request, "P1D");
    expect(advanced.status).toBe(200);

    // pending -> processing a step after creation, -> settled a step later: the instants the engine would have used.
    const settledAt = apiTime(Math.ceil((madeAt.getTime() + BASE_STEP_MS) / 1000) * 1000 + BASE_STEP_MS);
    const sent = (await request("/ach/ach_fixture001")).body as Record<string, unknown>;
    expect({ status: sent.status, error: sent.error, updated_at: sent.updated_at }).toEqual({ status: "sent", error: null, updated_at: settledAt });
    const returned = (await request("/ach/ach_fixture002")).body as Record<string, unknown>;
    expect({ status: returned.status, error: returned.error, updated_at: returned.updated_at }).toEqual({
      status: "returned",
      error: "R01 Insufficient Funds",
      updated_at: settledAt,
    });

    // Two ach.update notifications for each (processing, then its final state), and no more.
    const countFor = (id: string) => hooks.at("/ach").filter((notification) => notification.body.id === id).length;
    await eventually(() => countFor("ach_fixture001") === 2 && countFor("ach_fixture002") === 2, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      hooks
        .at("/ach")
        .map((notification) => [notification.body.event, notification.body.id])
        .sort(),
    ).toEqual([
      ["ach.update", "ach_fixture001"],
      ["ach.update", "ach_fixture001"],
      ["ach.update", "ach_fixture002"],
      ["ach.update", "ach_fixture002"],
    ]);
  }, 60_000);

  it("stamps a new object's created_at with the advanced clock", async () => {
    const { request } = await start(await freshDatabase());
    const hooks = await receiver();
    const advanced = Date.parse(((await advance(request, "P3D")).body as { now: string }).now);
    const created = await request("/webhook", { method: "POST", json: { url: hooks.url("/created"), event: "ach.create" } });
    expect(created.status).toBe(201);
    const { created_at, updated_at } = created.body as { created_at: string; updated_at: string };
    expect(updated_at).toBe(created_at);
    expect(Date.parse(created_at) - advanced).toBeGreaterThanOrEqual(0);
    expect(Date.parse(created_at) - advanced).toBeLessThan(5000);
    expect(Date.parse(created_at) - Date.now()).toBeGreaterThan(3 * DAY_MS - 5000);
  }, 60_000);

  it("sends a webhook retry as soon as an advance makes it due, without waiting the wall time", async () => {
    // The first retry waits 30 to 60 minutes.
    const webhooks = { ...defaultSandboxSettings.webhooks, retryBaseMs: 3_600_000, pollIntervalMs: 5 };
    const { sandbox, request } = await start(await freshDatabase(), { webhooks });
    const hooks = await receiver();
    hooks.respondWith((_path, index) => (index === 0 ? 500 : 200));
    const hook = (await request("/webhook", { method: "POST", json: { url: hooks.url("/retry"), event: "network_transfer.update" } })).body as {
      id: string;
    };
    await sandbox.context.db.insert(tables.network_transfer).values(rows.network_transfer(1));
    expect((await request("/network_transfer/nt_fixture1", { method: "PATCH", json: { userdata: { n: 1 } } })).status).toBe(200);

    await eventually(() => hooks.at("/retry").length === 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hooks.at("/retry")).toHaveLength(1);

    const advancedAt = Date.parse(((await advance(request, "PT1H")).body as { now: string }).now);
    await eventually(() => hooks.at("/retry").length === 2, 5000);
    const attempts = await eventually(async () => {
      const page = (await request(`/webhook/${hook.id}/deliveries`)).body as {
        data: { attempt: number; status_code: number; succeeded: boolean; attempted_at: string }[];
      };
      return page.data.length === 2 && page.data;
    }, 5000);
    expect(attempts.map(({ attempt, status_code, succeeded }) => ({ attempt, status_code, succeeded }))).toEqual([
      { attempt: 2, status_code: 200, succeeded: true },
      { attempt: 1, status_code: 500, succeeded: false },
    ]);
    expect(Date.parse(attempts[0]!.attempted_at)).toBeGreaterThanOrEqual(advancedAt - 1000);
  }, 60_000);

  it("keeps the clock across a restart on the same database", async () => {
    const databaseUrl = await freshDatabase();
    const first = await start(databaseUrl);
    const advanced = Date.parse(((await advance(first.request, "P2D")).body as { now: string }).now);
    const wallAtAdvance = Date.now();
    await first.sandbox.close();

    const second = await start(databaseUrl);
    const now = await clockOf(second.request);
    const wallSince = Date.now() - wallAtAdvance;
    expect(now - advanced).toBeGreaterThanOrEqual(0);
    expect(now - advanced).toBeLessThanOrEqual(wallSince + 1000);
    expect(now - Date.now()).toBeGreaterThan(2 * DAY_MS - 2000);
  }, 60_000);

  it("refuses a malformed, negative, zero, month-long or too large duration with a 400 naming by", async () => {
    const { request } = await start(await freshDatabase());
    const before = await clockOf(request);
    const cases: [unknown, string][] = [
      ["1 day", 'by: expected an ISO 8601 duration such as PT1H or P1D (got "1 day")'],
      ["P", 'by: expected an ISO 8601 duration such as PT1H or P1D (got "P")'],
      ["P1DT", 'by: expected an ISO 8601 duration such as PT1H or P1D (got "P1DT")'],
      ["-P1D", 'by: must be a positive duration (got "-P1D")'],
      ["PT0S", 'by: must be a positive duration (got "PT0S")'],
      ["P1M", 'by: years and months have no fixed length; give weeks or days instead, e.g. P30D (got "P1M")'],
      ["P367D", 'by: at most P366D at a time (got "P367D")'],
      ["P99999999999999999999D", 'by: at most P366D at a time (got "P99999999999999999999D")'],
    ];
    for (const [by, error] of cases) {
      const answer = await advance(request, by);
      expect({ status: answer.status, body: answer.body }, String(by)).toEqual({ status: 400, body: { error } });
    }
    const wrongBodies: [unknown, string][] = [
      [{}, "by is required"],
      [{ by: 86_400 }, "by: Invalid input: expected string, received number"],
      [{ by: "P".padEnd(65, "1") }, "by: Too big: expected string to have <=64 characters"],
      [{ by: "P1D", at: "now" }, "unknown field: at"],
    ];
    for (const [json, error] of wrongBodies) {
      const answer = await request("/sandbox/clock/advance", { method: "POST", json });
      expect({ status: answer.status, body: answer.body }, JSON.stringify(json)).toEqual({ status: 400, body: { error } });
    }
    expect((await clockOf(request)) - before).toBeLessThan(2000);
  }, 60_000);

  it("answers 401 without credentials", async () => {
    const { sandbox } = await start(await freshDatabase());
    for (const [method, path] of [
      ["GET", "/sandbox/clock"],
      ["POST", "/sandbox/clock/advance"],
    ] as const) {
      const response = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: method === "POST" ? JSON.stringify({ by: "P1D" }) : undefined,
      });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({ error: expect.stringContaining("Missing credentials") });
    }
  }, 60_000);
});
