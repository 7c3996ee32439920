import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { createApiRoute } from "@/lib/api/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { audited, listAuditRecords, recordAuditEvent } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createBankClient } from "@/lib/bank/client";
import type { BankTarget } from "@/lib/bank/transport";
import type { Environment } from "@/lib/credentials/environments";
import { runBackfill } from "@/lib/index/backfill";
import { ensureReceiverCredentials } from "@/lib/index/receiver-credentials";
import { purgeEnvironment } from "@/lib/index/retention";
import { ensureSubscriptions } from "@/lib/index/subscriptions";
import { createLogger } from "@/lib/log";
import type { Role } from "@/lib/permissions";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import type { TestDatabaseTarget } from "@/tests/support/databases";
import { sandboxControlResolver } from "@/lib/sandbox-control/routes";

// The console's /api/sandbox/... routes through the console's one route wrapper, in front of the sandbox bank started
// for real (demo seed) and a real console database (audit trail, index), for the route tests (lib/sandbox-control/routes-*.test.ts). Only
// the session is given (next-auth needs a running Next server; the e2e permission matrix covers that path).

const consoleOrigin = "http://console.test";
const bankKey = { id: "key_sandbox_routes", secret: "sandbox-routes-test-secret-0123456789" };
const log = createLogger({ level: "silent" });

export const staff = (role: Role): StaffUser => ({ id: `stf_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false });

export type Answer = {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown> & { error?: Record<string, unknown> };
  requestId: string;
};

/** Every route of the interface, with a body it accepts. */
export const routes: Array<{ method: string; path: string; body?: unknown; permission: "bank:read" | "sandbox:control" | "sandbox:reset" }> = [
  { method: "GET", path: "/clock", permission: "bank:read" },
  { method: "POST", path: "/clock/advance", body: { by: "PT1M" }, permission: "sandbox:control" },
  { method: "GET", path: "/faults", permission: "bank:read" },
  { method: "POST", path: "/faults", body: { match: "GET /card", latency_ms: 1 }, permission: "sandbox:control" },
  { method: "DELETE", path: "/faults/flt_missing", permission: "sandbox:control" },
  { method: "DELETE", path: "/faults", permission: "sandbox:control" },
  { method: "POST", path: "/reset", body: { seed: "demo" }, permission: "sandbox:reset" },
  { method: "GET", path: "/snapshot", permission: "sandbox:reset" },
  { method: "PUT", path: "/snapshot", body: { format: "sandbox-bank-snapshot", version: 1, tables: {} }, permission: "sandbox:reset" },
  { method: "GET", path: "/ach/ach_missing/transitions", permission: "bank:read" },
  { method: "POST", path: "/ach/ach_missing/transition", body: { to: "sent" }, permission: "sandbox:control" },
  { method: "GET", path: "/webhook/webhook_missing/transitions", permission: "bank:read" },
  { method: "POST", path: "/fednow/fednow_missing/transition", body: { to: "done" }, permission: "sandbox:control" },
];
export const byPermission = (permission: string) => routes.filter((route) => route.permission === permission);

/**
 * Sets up, inside the calling `describe`, a sandbox bank (demo seed), a console database and the routes in front of
 * them. Each test starts as an admin in the sandbox environment; `session` changes who calls and where.
 */
export function sandboxRoutesHarness(target: TestDatabaseTarget) {
  const database = migratedConsoleDatabase(target);
  const encryptionKey = randomBytes(32);
  let sandbox: RunningSandbox;
  const drops: Array<() => Promise<void>> = [];
  const session = { user: null as StaffUser | null, environment: "sandbox" as Environment, target: undefined as BankTarget | undefined };
  let backfill: Promise<unknown> | undefined;

  beforeAll(async () => {
    const bankDatabase = await target.create();
    drops.push(bankDatabase.drop);
    sandbox = await startSandbox({ databaseUrl: bankDatabase.url, seed: "demo", demoKey: bankKey, log });
  }, 120_000);
  afterAll(async () => {
    await backfill;
    await sandbox?.close();
    for (const drop of drops) await drop();
  }, 120_000);
  beforeEach(() => {
    resetRateLimits();
    session.user = staff("admin");
    session.environment = "sandbox";
    session.target = targetOf(sandbox);
  });

  const targetOf = (bank: { url: string }): BankTarget => ({ baseUrl: bank.url, auth: { type: "basic", keyId: bankKey.id, secret: bankKey.secret } });
  const bankClient = () => createBankClient(session.target!, { retries: 0, timeoutMs: 30_000 });
  const receiverUrl = "http://127.0.0.1:9/api/bank-events/sandbox";
  const handler = createApiRoute({ currentUser: async () => session.user, log })(
    sandboxControlResolver({
      activeEnvironment: async () => session.environment,
      bankTarget: async () => session.target ?? null,
      transport: { timeoutMs: 30_000, retries: 0, retryBaseMs: 50, retryMaxMs: 1_000 },
      audited: (entry, perform, options) => audited(database.db, entry, perform, options),
      recordAuditEvent: (entry) => recordAuditEvent(database.db, entry),
      index: {
        enabled: () => true,
        purge: (environment) => purgeEnvironment(database.db, environment),
        setUpSubscriptions: async (environment, actor) =>
          ensureSubscriptions(bankClient(), {
            environment,
            receiverUrl,
            credentials: await ensureReceiverCredentials(database.db, environment, encryptionKey, actor),
          }),
        startBackfill: (environment) => {
          backfill = runBackfill({ db: database.db, client: bankClient(), environment, log, pageSize: 500, pagesPerSecond: 0 });
        },
        log,
      },
    }),
  );

  /** Calls the route as a browser on the console's origin would. */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const url = new URL(`/api/sandbox${path}`, consoleOrigin);
    const init: RequestInit = { method, headers: { origin: consoleOrigin, "content-type": "application/json", ...headers } };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const segments = url.pathname
      .slice("/api/sandbox/".length)
      .split("/")
      .map((segment) => {
        try {
          return decodeURIComponent(segment);
        } catch {
          return segment;
        }
      });
    const response = await handler(new Request(url, init), { params: Promise.resolve({ path: segments }) });
    const text = await response.text();
    let json = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      // not JSON: the test reads `text`
    }
    return { status: response.status, headers: response.headers, text, json, requestId: response.headers.get("x-request-id")! };
  }
  /** The sandbox bank asked directly, as a test team would. */
  async function bank(method: string, path: string, body?: unknown) {
    const response = await fetch(new URL(path, sandbox.url), {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${bankKey.id}:${bankKey.secret}`).toString("base64")}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json().catch(() => null)) as Record<string, unknown> & { data: Array<Record<string, unknown>> },
    };
  }
  const recordsOf = async (answer: Answer) =>
    (await listAuditRecords(database.db, {}, { limit: 10_000 })).filter((record) => record.requestId === answer.requestId);
  const newAch = async () => {
    expect((await bank("POST", "/sandbox/counterparty", {})).status).toBe(201);
    const created = await bank("POST", "/sandbox/ach", { amount: "42.00" });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  /** A second sandbox bank as run with SANDBOX_CONTROL=off, started on first use: every /sandbox/... path is its 404. */
  async function startQuietBank() {
    const quietDatabase = await target.create();
    drops.push(quietDatabase.drop);
    const quiet = await startSandbox({ databaseUrl: quietDatabase.url, seed: "empty", demoKey: bankKey, log, settings: { control: "off" } });
    drops.unshift(() => quiet.close());
    return targetOf(quiet);
  }

  return {
    database,
    session,
    call,
    bank,
    recordsOf,
    newAch,
    startQuietBank,
    /** The index's rebuild after a reset or restore, once the route started one. */
    backfillDone: () => backfill,
  };
}
