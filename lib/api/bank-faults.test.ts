import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { audited, recordAuditEvent } from "@/lib/audit/trail";
import { createBankClient } from "@/lib/bank/client";
import type { ScratchDatabase } from "@/lib/db/scratch-database";
import { createLogger } from "@/lib/log";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { testDatabaseTargets } from "@/tests/support/databases";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { insertFixtures } from "@/tests/support/sandbox-fixtures";
import { bankProxyResolver } from "./bank-proxy";
import { createApiRoute } from "./route";

/**
 * The console's answers when the bank fails, each failure asked of a real sandbox bank with its fault API
 * (POST /sandbox/faults, docs/sandbox-control.md) and seen through the console's route wrapper and bank proxy, as the
 * browser sees `/api/bank/...`: a clear message naming the bank in the console's error shape, never a 500. Reads are
 * retried after 429, 502, 503, 504, a timeout or a dropped connection, waiting the bank's Retry-After; changes never.
 * The statuses are listed in docs/architecture.md ("When the bank fails").
 */
describe.each(testDatabaseTargets)("the console when the sandbox bank fails on purpose (both on $name)", (target) => {
  let database: ScratchDatabase;
  let sandbox: RunningSandbox;
  let handler: ReturnType<ReturnType<typeof createApiRoute>>;
  let control: ReturnType<typeof sandboxClient>;
  let achId: string;
  let wireId: string;
  /** When each attempt of the console's bank client ended (the transport reports every one). */
  let attemptsEndedAt: number[] = [];
  const admin = { id: "stf_admin", email: "admin@demo.bank", name: "admin", role: "admin" as const, locked: false };
  /** The console's transport as configured by BANK_RETRIES and friends, with a short timeout for the latency case. */
  const transport = { retries: 2, retryBaseMs: 50, retryMaxMs: 5_000, timeoutMs: 1_000 };

  beforeAll(async () => {
    database = await target.create();
    sandbox = await startSandbox({ databaseUrl: database.url, seed: "empty", demoKey });
    await insertFixtures(sandbox.context.db, 1);
    control = sandboxClient(sandbox.url, demoKey.id, demoKey.secret);
    process.env.DATABASE_URL = database.url;
    process.env.CONSOLE_DEMO_USERS = "off";
    vi.resetModules(); // a fresh lib/db/console per database target
    const { consoleDb } = await import("@/lib/db/console");
    const { db } = await consoleDb();
    const bank = createBankClient(
      { baseUrl: sandbox.url, auth: { type: "basic", keyId: demoKey.id, secret: demoKey.secret } },
      { ...transport, onReached: () => attemptsEndedAt.push(performance.now()) },
    );
    handler = createApiRoute({ currentUser: async () => admin, log: createLogger({ level: "silent" }) })(
      bankProxyResolver({
        activeEnvironment: async () => "sandbox",
        bankClient: async () => bank,
        audited: (entry, perform, options) => audited(db, entry, perform, options),
        recordAuditEvent: (entry) => recordAuditEvent(db, entry),
      }),
    );
    achId = ((await control("/ach?page_size=1")).body as { data: Array<{ id: string }> }).data[0]!.id;
    wireId = ((await control("/network_transfer?page_size=1")).body as { data: Array<{ id: string }> }).data[0]!.id;
  }, 120_000);

  afterEach(async () => {
    expect((await control("/sandbox/faults", { method: "DELETE" })).status).toBe(204);
    attemptsEndedAt = [];
  });

  afterAll(async () => {
    await sandbox?.close();
    const { consoleDb } = await import("@/lib/db/console");
    await (await consoleDb()).close();
    await database?.drop();
  }, 120_000);

  const addFault = async (fault: Record<string, unknown>) => {
    const answer = await control("/sandbox/faults", { method: "POST", json: fault });
    expect(answer.status).toBe(201);
    return (answer.body as { id: string }).id;
  };
  const activeFaults = async () => ((await control("/sandbox/faults")).body as { data: Array<{ id: string; times: number | null }> }).data;

  /** A request to the console's `/api/bank/...`, as the browser sends it. */
  const consoleCall = async (method: string, path: string, body?: unknown) => {
    const url = `http://console.test/api/bank${path}`;
    const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json", origin: "http://console.test" };
    const started = performance.now();
    const response = await handler(new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), {
      params: Promise.resolve({ path: new URL(url).pathname.split("/").slice(3) }),
    });
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: (await response.json()) as { data?: unknown[]; id?: string; error?: { code: string; message: string } },
      ms: performance.now() - started,
    };
  };

  const reads = [
    { name: "a list read", match: "GET /ach", path: () => "/ach?page_size=5" },
    { name: "a detail read", match: "GET /ach/*", path: () => `/ach/${achId}` },
  ];

  describe.each(reads)("$name", (read) => {
    it("under a 503 with retry_after is retried after that wait, and succeeds when the bank is back", async () => {
      await addFault({ match: read.match, status: 503, retry_after: 1, times: 1 });
      const answer = await consoleCall("GET", read.path());
      expect(answer.status).toBe(200);
      expect(attemptsEndedAt).toHaveLength(2);
      expect(attemptsEndedAt[1]! - attemptsEndedAt[0]!).toBeGreaterThanOrEqual(1_000);
      expect(await activeFaults()).toEqual([]);
    });

    it("under a 503 that lasts is a 503 naming the bank, with its message and Retry-After, after every retry", async () => {
      await addFault({ match: read.match, status: 503, retry_after: 1 });
      const answer = await consoleCall("GET", read.path());
      expect(answer).toMatchObject({
        status: 503,
        retryAfter: "1",
        body: {
          error: {
            code: "bank_unavailable",
            message: expect.stringMatching(/^The bank is unavailable \(HTTP 503; try again in 1 s\): Service unavailable \(sandbox fault flt_\w+\)$/),
          },
        },
      });
      expect(attemptsEndedAt).toHaveLength(1 + transport.retries);
      expect(answer.ms).toBeGreaterThanOrEqual(2_000);
    });

    it("under a 429 is retried after Retry-After, then a 429 with the bank's Retry-After passed on", async () => {
      await addFault({ match: read.match, status: 429, retry_after: 1 });
      const answer = await consoleCall("GET", read.path());
      expect(answer).toMatchObject({
        status: 429,
        retryAfter: "1",
        body: {
          error: {
            code: "bank_rate_limited",
            message: expect.stringMatching(/^The bank is limiting requests \(try again in 1 s\): .*\(sandbox fault flt_\w+\)$/),
          },
        },
      });
      expect(attemptsEndedAt).toHaveLength(1 + transport.retries);
    });

    it("under a 500 is a 502 with the bank's message, not retried", async () => {
      await addFault({ match: read.match, status: 500 });
      const answer = await consoleCall("GET", read.path());
      expect(answer).toMatchObject({
        status: 502,
        retryAfter: null,
        body: {
          error: { code: "bank_error", message: expect.stringMatching(/^The bank failed to handle the request \(HTTP 500\): .*sandbox fault flt_/) },
        },
      });
      expect(attemptsEndedAt).toHaveLength(1);
    });

    it("with the connection dropped is a 502 unreachable, quickly", async () => {
      await addFault({ match: read.match, drop: true });
      const answer = await consoleCall("GET", read.path());
      expect(answer).toMatchObject({
        status: 502,
        body: { error: { code: "bank_unreachable", message: expect.stringContaining("The bank could not be reached") } },
      });
      expect(attemptsEndedAt).toHaveLength(1 + transport.retries);
      expect(answer.ms).toBeLessThan(2_000);
    });

    it("slower than the console's timeout is a 504 saying so, once every attempt timed out", async () => {
      await addFault({ match: read.match, latency_ms: 3 * transport.timeoutMs });
      const answer = await consoleCall("GET", read.path());
      expect(answer).toMatchObject({
        status: 504,
        body: { error: { code: "bank_timeout", message: `The bank did not answer within ${transport.timeoutMs} ms.` } },
      });
      expect(attemptsEndedAt).toHaveLength(1 + transport.retries);
      expect(answer.ms).toBeLessThan((1 + transport.retries) * transport.timeoutMs + 2_000);
    });
  });

  it("never retries a change under a 503: the bank sees it once, and the console answers 503", async () => {
    const faultId = await addFault({ match: "PATCH /network_transfer/*", status: 503, retry_after: 1, times: 2 });
    const answer = await consoleCall("PATCH", `/network_transfer/${wireId}`, { userdata: { tried: "once" } });
    expect(answer).toMatchObject({ status: 503, retryAfter: "1", body: { error: { code: "bank_unavailable" } } });
    // Two requests: the proxy reads the transfer for the audit record's `before`, then sends the change once.
    expect(attemptsEndedAt).toHaveLength(2);
    // The fault, good for two, was used once: the change reached the bank once.
    expect(await activeFaults()).toEqual([expect.objectContaining({ id: faultId, times: 1 })]);
    expect(((await control(`/network_transfer/${wireId}`)).body as { userdata: unknown }).userdata).not.toEqual({ tried: "once" });
  });
});
