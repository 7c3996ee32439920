import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiRoute } from "@/lib/api/route";
import { audited, listAuditRecords, recordAuditEvent } from "@/lib/audit/trail";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { answerJson, dropConnection, startLocalServer, type LocalServer } from "@/tests/support/local-server";
import { sandboxControlResolver } from "./routes";

/**
 * The sandbox's controls (/api/sandbox/...) when the bank cannot answer: the same answers as the bank proxy gives
 * (docs/architecture.md, "When the bank fails"; lib/api/bank-faults.test.ts): a 503 `bank_unavailable` passing the
 * bank's Retry-After on, a 504 `bank_timeout`, a 502 `bank_unreachable` or `bank_error`, never a 500. The sandbox's
 * fault API never faults its own control paths, so the bank here is a local server that answers, stalls or drops as
 * each case needs.
 */
describe.each(testDatabaseTargets)("the sandbox's controls when the bank cannot answer (audit on $name)", (target) => {
  const database = migratedConsoleDatabase(target);
  const admin = { id: "stf_admin", email: "admin@demo.bank", name: "admin", role: "admin" as const, locked: false };
  let bank: LocalServer;
  let answer: (response: Parameters<Parameters<typeof startLocalServer>[0]>[1]) => void = () => {};
  let handler: ReturnType<ReturnType<typeof createApiRoute>>;
  const index = {
    enabled: () => false,
    purge: async () => {},
    setUpSubscriptions: async () => {},
    startBackfill: () => {},
    log: createLogger({ level: "silent" }),
  };

  beforeAll(async () => {
    bank = await startLocalServer((_request, response) => answer(response));
    handler = createApiRoute({ currentUser: async () => admin, log: createLogger({ level: "silent" }) })(
      sandboxControlResolver({
        activeEnvironment: async () => "sandbox",
        bankTarget: async () => ({ baseUrl: bank.url, auth: { type: "basic", keyId: "key_outage", secret: "outage-test-secret-0123456789" } }),
        // Reads are retried once, as BANK_RETRIES would; a short timeout for the stalled bank.
        transport: { timeoutMs: 400, retries: 1, retryBaseMs: 10, retryMaxMs: 50 },
        audited: (entry, perform, options) => audited(database.db, entry, perform, options),
        recordAuditEvent: (entry) => recordAuditEvent(database.db, entry),
        index,
      }),
    );
  });
  afterEach(() => {
    bank.received.length = 0;
  });
  afterAll(() => bank?.close());

  const call = async (method: string, path: string, body?: unknown) => {
    const url = new URL(`/api/sandbox${path}`, "http://console.test");
    const response = await handler(
      new Request(url, {
        method,
        headers: { origin: "http://console.test", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      { params: Promise.resolve({ path: path.slice(1).split("/") }) },
    );
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      requestId: response.headers.get("x-request-id"),
      body: (await response.json()) as { error?: { code: string; message: string } },
    };
  };
  const cases = [
    { name: "a read (the clock)", method: "GET", path: "/clock", body: undefined, attempts: 2 },
    { name: "a change (a new fault)", method: "POST", path: "/faults", body: { match: "GET /card", status: 503 }, attempts: 1 },
  ];

  describe.each(cases)("$name", (control) => {
    it("answering 503 with Retry-After is a 503 bank_unavailable that passes the Retry-After on", async () => {
      answer = (response) => answerJson(response, 503, { error: "Down for maintenance" }, { "retry-after": "0" });
      const answered = await call(control.method, control.path, control.body);
      expect(answered).toMatchObject({
        status: 503,
        retryAfter: "0",
        body: { error: { code: "bank_unavailable", message: "The bank is unavailable (HTTP 503; try again in 0 s): Down for maintenance" } },
      });
      // A read is tried again after the bank's wait; a change is sent once.
      expect(bank.received).toHaveLength(control.attempts);
    });

    it("answering 500 is a 502 bank_error with the bank's message", async () => {
      answer = (response) => answerJson(response, 500, { error: "Internal error in the bank" });
      expect(await call(control.method, control.path, control.body)).toMatchObject({
        status: 502,
        body: { error: { code: "bank_error", message: "The bank failed to handle the request (HTTP 500): Internal error in the bank" } },
      });
    });

    it("not answering in time is a 504 bank_timeout", async () => {
      answer = () => {}; // holds the request open
      expect(await call(control.method, control.path, control.body)).toMatchObject({
        status: 504,
        body: { error: { code: "bank_timeout", message: "The bank did not answer within 400 ms." } },
      });
    });

    it("dropping the connection is a 502 bank_unreachable", async () => {
      answer = dropConnection;
      expect(await call(control.method, control.path, control.body)).toMatchObject({ status: 502, body: { error: { code: "bank_unreachable" } } });
      expect(bank.received).toHaveLength(control.attempts);
    });
  });

  it("a change the bank could not answer is audited as failed, with why", async () => {
    answer = (response) => answerJson(response, 503, { error: "Down for maintenance" }, { "retry-after": "7" });
    const answered = await call("POST", "/faults", { match: "GET /card", status: 503 });
    expect(answered.status).toBe(503);
    const records = (await listAuditRecords(database.db, {}, { limit: 1000 })).filter((record) => record.requestId === answered.requestId);
    expect(records).toEqual([expect.objectContaining({ action: "sandbox.fault.add", outcome: "failed", error: expect.stringContaining("503") })]);
  });
});
