import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSandboxSettings } from "@/sandbox/context";
import { testDatabaseTargets } from "@/tests/support/databases";
import { everyListAndGet } from "@/tests/support/sandbox-answers";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";
import { dataTables, keptTables } from "./sandbox-data";
import { getTableConfig } from "drizzle-orm/pg-core";

type Snapshot = { format: string; version: number; tables: Record<string, Array<Record<string, unknown>>> };

describe.each(testDatabaseTargets)("GET and PUT /sandbox/snapshot on $name", (target) => {
  const webhooks = { ...defaultSandboxSettings.webhooks, pollIntervalMs: 20, retryBaseMs: 50, retryCapMs: 100 };
  const fixture = sandboxOnDatabase(target, { seed: "empty", settings: { webhooks } });
  const { request } = fixture;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  const download = async () => {
    const response = await request("/sandbox/snapshot");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="sandbox-snapshot.json"');
    return response.text;
  };
  const upload = (file: string) => request("/sandbox/snapshot", { method: "PUT", body: file, headers: { "content-type": "application/json" } });

  /**
   * A state with a bit of everything: seeded objects, changed ones, two webhooks whose deliveries all ended (one
   * after a refused attempt, so its history holds a failure), their events, and a clock moved forward.
   */
  let busyBanks = 0;
  async function busyBank() {
    expect((await request("/sandbox/reset", { method: "POST", json: { seed: 5 } })).status).toBe(200);
    // First, so that whatever the advance moves is done before any webhook listens.
    expect((await request("/sandbox/clock/advance", { method: "POST", json: { by: "P2D" } })).status).toBe(200);
    // A path of its own each time: the receiver counts requests per path over the whole file.
    const flaky = `/flaky-${(busyBanks += 1)}`;
    receiver.respondWith((path, index) => (path === flaky && index === 0 ? 500 : 200));
    const hooks: string[] = [];
    for (const path of ["/steady", flaky]) {
      const created = await request("/webhook", {
        method: "POST",
        json: { url: receiver.url(path), event: "network_transfer.update", userdata: { path } },
      });
      expect(created.status).toBe(201);
      hooks.push((created.body as { id: string }).id);
    }
    const { data } = (await request("/network_transfer?page_size=3")).body as { data: Array<{ id: string }> };
    for (const [index, { id }] of data.entries()) {
      expect((await request(`/network_transfer/${id}`, { method: "PATCH", json: { userdata: { index, note: "1.10" } } })).status).toBe(200);
    }
    await eventually(async () => {
      const ended = await Promise.all(
        hooks.map(async (id) => ((await request(`/webhook/${id}/deliveries`)).body as { data: Array<{ succeeded: boolean }> }).data),
      );
      return ended.every((attempts) => attempts.filter((attempt) => attempt.succeeded).length === data.length);
    });
  }

  it("round trip: after changes, restoring a download gives the same answer to every list and get, and the same file", async () => {
    await busyBank();
    const file = await download();
    const answers = await everyListAndGet(request);
    const clockBefore = Date.parse(((await request("/sandbox/clock")).body as { now: string }).now) - Date.now();

    const hook = await request("/webhook", { method: "POST", json: { url: receiver.url("/later"), event: "ach.update" } });
    expect(hook.status).toBe(201);
    expect((await request("/sandbox/reset", { method: "POST", json: { seed: "demo" } })).status).toBe(200);

    const restored = await upload(file);
    const snapshot = JSON.parse(file) as Snapshot;
    expect(restored).toMatchObject({
      status: 200,
      body: { restored: Object.fromEntries(Object.entries(snapshot.tables).map(([table, rows]) => [table, rows.length])) },
    });
    expect(snapshot.tables.webhook_delivery_attempts!.some((attempt) => attempt.succeeded === false)).toBe(true);
    expect(await everyListAndGet(request)).toEqual(answers);
    expect(await download()).toBe(file);
    const clockAfter = Date.parse(((await request("/sandbox/clock")).body as { now: string }).now) - Date.now();
    expect(Math.abs(clockAfter - clockBefore)).toBeLessThan(5_000);
    expect(clockAfter).toBeGreaterThan(2 * 86_400_000 - 60_000);
  }, 120_000);

  it("carries every table of the sandbox schema except the ones kept for credentials", async () => {
    const { rows } = await fixture.sandbox.context.database.pool.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'sandbox' ORDER BY 1",
    );
    const kept = [...keptTables.keys()].map((table) => getTableConfig(table).name);
    const carried = Object.keys((JSON.parse(await download()) as Snapshot).tables);
    expect(carried).toEqual(dataTables.map((table) => table.name));
    expect([...carried, ...kept].sort()).toEqual(rows.map((row) => row.name));
  });

  const header = { format: "sandbox-bank-snapshot", version: 1 };
  const withTables = async (change: (tables: Snapshot["tables"]) => void) => {
    const snapshot = JSON.parse(await download()) as Snapshot;
    change(snapshot.tables);
    return snapshot;
  };

  it.each<[string, () => Promise<unknown>, string]>([
    ["another version", async () => ({ ...header, version: 2, tables: {} }), "version must be 1: this sandbox reads snapshots of version 1"],
    ["another format", async () => ({ format: "pg_dump", version: 1 }), 'format must be "sandbox-bank-snapshot" (a file from GET /sandbox/snapshot)'],
    ["a missing table", () => withTables((tables) => delete tables.ach), "tables.ach is required"],
    ["an unknown table", () => withTables((tables) => (tables.ledger = [])), "unknown field in tables: ledger"],
    [
      "a value of the wrong type",
      () => withTables((tables) => (tables.ach![0]!.amount = 12.3)),
      "tables.ach.0.amount: Invalid input: expected string, received number",
    ],
    ["an unknown column", () => withTables((tables) => (tables.ach![0]!.colour = "red")), "unknown field in tables.ach.0: colour"],
    [
      "a time the database refuses (after earlier tables were written)",
      () => withTables((tables) => (tables.webhooks![0]!.created_at = "yesterday-ish")),
      'tables.webhooks: invalid input syntax for type timestamp with time zone: "yesterday-ish"',
    ],
    [
      "a duplicate id",
      () => withTables((tables) => tables.ach!.push(tables.ach![0]!)),
      'tables.ach: duplicate key value violates unique constraint "ach_pkey"',
    ],
  ])(
    "refuses %s with a 400 naming it, and changes nothing",
    async (_, make, message) => {
      await busyBank();
      const before = await download();
      const response = await upload(JSON.stringify(await make()));
      expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { error: message } });
      expect(await download()).toBe(before);
    },
    60_000,
  );

  it("is a 401 without credentials, both ways", async () => {
    const file = await download();
    for (const method of ["GET", "PUT"]) {
      const response = await request("/sandbox/snapshot", {
        method,
        headers: { authorization: "", "content-type": "application/json" },
        ...(method === "PUT" && { body: file }),
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: expect.stringMatching(/^Missing credentials/) });
    }
    expect(await download()).toBe(file);
  });
});
