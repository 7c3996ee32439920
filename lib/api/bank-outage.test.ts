import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { audited, recordAuditEvent } from "@/lib/audit/trail";
import { createBankClient } from "@/lib/bank/client";
import { createLogger } from "@/lib/log";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { demoKey } from "@/tests/support/sandbox-client";
import { insertFixtures } from "@/tests/support/sandbox-fixtures";
import type { ScratchDatabase } from "@/lib/db/scratch-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { bankProxyResolver } from "./bank-proxy";
import { createApiRoute } from "./route";

// Fault: the sandbox bank stops and comes back on the same port while the console runs. The console keeps answering
// (its health stays ok and reports the bank unreachable; bank reads fail fast with a 502 in the documented shape, never
// a hang) and recovers by itself on the next request once the bank is back, without a restart.
describe.each(testDatabaseTargets)("the console while the sandbox bank stops and restarts (both on $name)", (target) => {
  // One database for both, each in its own schema, as `npm start` runs them.
  let database: ScratchDatabase;
  let sandbox: RunningSandbox;
  let port: number;
  let health: () => Promise<Response>;
  let handler: ReturnType<ReturnType<typeof createApiRoute>>;
  const admin = { id: "stf_admin", email: "admin@demo.bank", name: "admin", role: "admin" as const, locked: false };

  beforeAll(async () => {
    database = await target.create();
    sandbox = await startSandbox({ databaseUrl: database.url, seed: "empty", demoKey });
    port = Number(new URL(sandbox.url).port);
    await insertFixtures(sandbox.context.db, 1);
    // The console's own health route, on its own database (lib/db/console.ts reads DATABASE_URL once).
    process.env.DATABASE_URL = database.url;
    process.env.CONSOLE_DEMO_USERS = "off";
    vi.resetModules(); // a fresh lib/db/console per database target
    const { consoleDb } = await import("@/lib/db/console");
    const { db } = await consoleDb();
    // Outcomes recorded as lib/bank/console-client.ts records them, into the record the health route reads.
    const { bankReachability } = await import("@/lib/bank/reachability");
    // The health route as app/api/health/route.ts builds it, asked by signed-in staff (signed out it says only up or down).
    const { readinessRoute } = await import("@/lib/health/readiness");
    health = readinessRoute(consoleDb, bankReachability.snapshot, async () => true);
    const bank = createBankClient(
      { baseUrl: sandbox.url, auth: { type: "basic", keyId: demoKey.id, secret: demoKey.secret } },
      { retries: 1, retryBaseMs: 50, timeoutMs: 2_000, onReached: (reached) => bankReachability.record("sandbox", reached) },
    );
    handler = createApiRoute({ currentUser: async () => admin, log: createLogger({ level: "silent" }) })(
      bankProxyResolver({
        activeEnvironment: async () => "sandbox",
        bankClient: async () => bank,
        audited: (entry, perform, options) => audited(db, entry, perform, options),
        recordAuditEvent: (entry) => recordAuditEvent(db, entry),
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await sandbox?.close();
    const { consoleDb } = await import("@/lib/db/console");
    await (await consoleDb()).close();
    await database?.drop();
  }, 120_000);

  const listAch = async () => {
    const started = performance.now();
    const response = await handler(new Request("http://console.test/api/bank/ach?page_size=5"), { params: Promise.resolve({ path: ["ach"] }) });
    return {
      status: response.status,
      body: (await response.json()) as { data?: unknown[]; error?: { code: string; message: string } },
      ms: performance.now() - started,
    };
  };

  it("serves, stays healthy and reports the bank unreachable while it is down, and recovers by itself when it is back", async () => {
    expect((await listAch()).status).toBe(200);

    await sandbox.close();
    const down = await listAch();
    expect(down).toMatchObject({
      status: 502,
      body: { error: { code: "bank_unreachable", message: expect.stringContaining("could not be reached") } },
    });
    expect(down.ms).toBeLessThan(5_000);
    const healthWhileDown = await health();
    expect(healthWhileDown.status).toBe(200);
    expect(await healthWhileDown.json()).toEqual({
      status: "ok",
      bank: { sandbox: { state: "unreachable", since: expect.any(String), checkedAt: expect.any(String) } },
    });

    sandbox = await startSandbox({ databaseUrl: database.url, port, seed: "empty", demoKey });
    const back = await listAch();
    expect(back.status).toBe(200);
    expect(back.body.data?.length).toBeGreaterThan(0);
    expect(await (await health()).json()).toMatchObject({ status: "ok", bank: { sandbox: { state: "reachable" } } });
  }, 120_000);
});
