import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiRoute } from "@/lib/api/route";
import { audited, listAuditRecords } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createBankCircuit, type BankCircuit } from "@/lib/bank/circuit";
import { createBankClient } from "@/lib/bank/client";
import { answerJson, startLocalServer, type LocalServer, type ReceivedRequest } from "@/tests/support/local-server";
import { listedResources } from "@/lib/contract";
import { achReturnCodes, fednowRejectReasons } from "@/lib/contract/sandbox-reason-codes";
import { connectDatabase, type Database } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import type { Role } from "@/lib/permissions";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { csvRecords } from "@/tests/support/parse-csv";
import type { ServerResponse } from "node:http";
import { bankExportResolver } from "./bank-export";

// The export route handler called directly with real Requests, against the sandbox bank started for real (demo seed)
// over HTTP, and a real audit trail. Between the two sits a forwarding hop that counts the bank requests of each
// export and can make the bank fail from the n-th request on, to show what a failure midway does to the download.

const key = { id: "key_export_test", secret: "export-test-secret-0123456789" };
const consoleOrigin = "http://console.test";
const staff = (role: Role): StaffUser => ({ id: `stf_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false });

let sandbox: RunningSandbox;
let hop: LocalServer;
/** Requests to the hop from this index on are answered 500 instead of reaching the bank. */
let failFrom = Number.POSITIVE_INFINITY;

async function forward(request: ReceivedRequest, response: ServerResponse) {
  const answer = await fetch(`${sandbox.url}${request.url}`, {
    method: request.method,
    headers: { authorization: String(request.headers.authorization) },
  });
  // page_next names the sandbox; pointed at the hop so that every page of an export passes through it.
  const text = (await answer.text()).replaceAll(sandbox.url, hop.url);
  response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
  response.end(text);
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: "demo", demoKey: key, log: createLogger({ level: "error" }) });
  hop = await startLocalServer((request, response, index) => {
    if (index >= failFrom) return answerJson(response, 500, { error: "injected failure between the console and the bank" });
    void forward(request, response);
  });
}, 120_000);

afterAll(async () => {
  await hop?.close();
  await sandbox?.close();
});

const auth = { type: "basic" as const, keyId: key.id, secret: key.secret };
/** The bank's own answer for a list, every page, straight from the sandbox. */
async function bankList(resource: "ach" | "person_application", query: Record<string, string | number>) {
  // Retries as the console's reads do: a kept-alive connection the sandbox closes just as it is reused (ECONNRESET)
  // is retried, not a failure of the reference read.
  const bank = createBankClient({ baseUrl: sandbox.url, auth }, { retries: 2, retryBaseMs: 10 });
  const items: Record<string, unknown>[] = [];
  for await (const item of bank.items(`list_${resource}`, { page_size: 1000, ...query } as never)) items.push(item as Record<string, unknown>);
  return items;
}

describe.each(testDatabaseTargets)("the bank export route (audit trail on $name)", (target) => {
  const database = migratedConsoleDatabase(target);
  let currentUser: StaffUser;
  let auditDatabase: () => Database<typeof schema>["db"];

  /** The route as app/api/export wires it, its bank client through the hop (with `circuit`, through a breaker). */
  const exportHandler = (circuit?: BankCircuit) =>
    createApiRoute({ currentUser: async () => currentUser, log: createLogger({ level: "silent" }) })(
      bankExportResolver({
        activeEnvironment: async () => "sandbox",
        bankClient: async () => createBankClient({ baseUrl: hop.url, auth }, { retries: 0, circuit }),
        audited: (entry, perform, options) => audited(auditDatabase(), entry, perform, options),
        indexDb: async () => database.db,
      }),
    );
  let handler = exportHandler();

  async function callExport(
    method: "GET" | "POST",
    resource: string,
    query = "",
    origin: string | null = consoleOrigin,
    body: unknown = method === "POST" ? { reason: "export test" } : undefined,
  ) {
    const headers = new Headers(origin ? { origin } : {});
    const request = new Request(`${consoleOrigin}/api/export/${resource}${query ? `?${query}` : ""}`, {
      method,
      headers,
      ...(body == null ? {} : { body: JSON.stringify(body) }),
    });
    const sentBefore = hop.received.length;
    const response = await handler(request, { params: Promise.resolve({ resource }) });
    return { response, bankRequests: () => hop.received.length - sentBefore };
  }

  const recordsOf = async (response: Response) =>
    (await listAuditRecords(database.db, {}, { limit: 1000 })).filter((record) => record.requestId === response.headers.get("x-request-id"));
  const auditCount = async () => (await listAuditRecords(database.db, {}, { limit: 1000 })).length;

  beforeEach(() => {
    currentUser = staff("viewer");
    auditDatabase = () => database.db;
    failFrom = Number.POSITIVE_INFINITY;
    handler = exportHandler();
  });

  it("exports every row of a filtered list, page after page, as the bank lists them, and audits the export", async () => {
    const { response, bankRequests } = await callExport("GET", "ach", "status=sent&direction=credit&page_size=7");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="ach-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { header, records } = csvRecords(await response.text());

    const expected = await bankList("ach", { status: "sent", direction: "credit" });
    expect(expected.length).toBeGreaterThan(3 * 7);
    expect(header).toEqual([...Object.keys(listedResources.ach.schema.shape), "return_code", "return_reason"]);
    expect(records.map((record) => record.id)).toEqual(expected.map((ach) => ach.id));
    expect(records.map((record) => [record.status, record.direction, record.amount])).toEqual(expected.map((ach) => ["sent", "credit", ach.amount]));
    expect(bankRequests()).toBe(Math.ceil(expected.length / 7));

    expect(await recordsOf(response)).toEqual([
      expect.objectContaining({
        action: "ach.export",
        targetId: null,
        actorEmail: "viewer@demo.bank",
        environment: "sandbox",
        before: { filters: { status: "sent", direction: "credit" }, revealed: false },
        after: { rows: expected.length },
        outcome: "succeeded",
      }),
    ]);
  });

  it("adds each ACH transfer's return code and its reason in words, computed from the bank's error, which stays as the bank gave it", async () => {
    const { response } = await callExport("GET", "ach", "status=returned");
    const { records } = csvRecords(await response.text());
    const expected = await bankList("ach", { status: "returned" });
    expect(expected.length).toBeGreaterThan(0);
    expect(records.map((record) => [record.id, record.error, record.return_code, record.return_reason])).toEqual(
      expected.map((ach) => {
        const code = String(ach.error).slice(0, 3);
        return [ach.id, ach.error, code, achReturnCodes[code]];
      }),
    );
  });

  it("adds each instant payment's reject code and reason in words, empty for a payment that was not rejected", async () => {
    const { response } = await callExport("GET", "fednow");
    const { header, records } = csvRecords(await response.text());
    expect(header.slice(-2)).toEqual(["reject_code", "reject_reason"]);
    const rejected = records.filter((record) => record.external_reject_reason !== "");
    expect(rejected.length).toBeGreaterThan(0);
    for (const record of rejected) {
      const reason = JSON.parse(record.external_reject_reason!) as { code: string };
      expect(record.reject_code).toBe(reason.code);
      expect(record.reject_reason).toBe(fednowRejectReasons[reason.code]);
    }
    const untroubled = records.filter(
      (record) => record.status !== "error" && !["rejected", "blocked", "error"].includes(record.external_status!) && record.error === "",
    );
    expect(untroubled.length).toBeGreaterThan(0);
    for (const record of untroubled) expect([record.reject_code, record.reject_reason]).toEqual(["", ""]);
  });

  it("masks personal data for a role that does not reveal it, exactly as the bank proxy does", async () => {
    const { response } = await callExport("GET", "person_application", "page_size=50");
    const { records } = csvRecords(await response.text());
    const raw = new Map((await bankList("person_application", {})).map((application) => [application.id, application]));
    expect(records).toHaveLength(raw.size);
    for (const record of records) {
      const application = raw.get(record.id)!;
      expect(record.date_of_birth).toBe("****-**-**");
      expect(record.email_address).toMatch(/^.\*\*\*@/);
      expect(record.phone_number).toBe(`${"*".repeat(String(application.phone_number).length - 4)}${String(application.phone_number).slice(-4)}`);
      if (application.identification_number) expect(record.identification_number).not.toBe(application.identification_number);
      expect(record.last_name).toBe(application.last_name);
    }
    expect(await recordsOf(response)).toEqual([
      expect.objectContaining({ action: "person_application.export", before: { filters: {}, revealed: false } }),
    ]);
  });

  it.each(["viewer", "operations"] as const)("refuses an unmasked export (POST) to %s, before asking the bank or auditing", async (role) => {
    currentUser = staff(role);
    const before = await auditCount();
    const { response, bankRequests } = await callExport("POST", "person_application");
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: "forbidden", message: "Your role may not export unmasked personal data." } });
    expect(bankRequests()).toBe(0);
    expect(await auditCount()).toBe(before);
  });

  it("gives compliance an unmasked export (POST), audited as revealed", async () => {
    currentUser = staff("compliance");
    const { response } = await callExport("POST", "person_application", "page_size=1000");
    expect(response.status).toBe(200);
    const { records } = csvRecords(await response.text());
    const raw = await bankList("person_application", {});
    expect(records.map((record) => [record.id, record.date_of_birth, record.email_address])).toEqual(
      raw.map((application) => [application.id, application.date_of_birth, application.email_address]),
    );
    expect(await recordsOf(response)).toEqual([
      expect.objectContaining({
        action: "person_application.export",
        role: "compliance",
        before: { filters: {}, revealed: true, reason: "export test" },
        after: { rows: raw.length },
      }),
    ]);
  });

  it.each([
    ["no body", null],
    ["an empty reason", { reason: " " }],
  ])("refuses an unmasked export with %s: 400 naming the reason, before asking the bank or auditing", async (_case, body) => {
    currentUser = staff("compliance");
    const before = await auditCount();
    const { response, bankRequests } = await callExport("POST", "person_application", "", consoleOrigin, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "invalid_input", message: expect.stringContaining("reason") } });
    expect(bankRequests()).toBe(0);
    expect(await auditCount()).toBe(before);
  });

  it("refuses an unmasked export from another site", async () => {
    currentUser = staff("compliance");
    const { response, bankRequests } = await callExport("POST", "person_application", "", "https://evil.example");
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "cross_origin" } });
    expect(bankRequests()).toBe(0);
  });

  it("refuses a masked export a link on another site started: nothing asked of the bank, nothing audited", async () => {
    const before = await auditCount();
    const request = new Request(`${consoleOrigin}/api/export/ach`, { headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" } });
    const sentBefore = hop.received.length;
    const response = await handler(request, { params: Promise.resolve({ resource: "ach" }) });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "cross_site" } });
    expect(hop.received.length).toBe(sentBefore);
    expect(await auditCount()).toBe(before);
  });

  it("fails the download, never ends it short, when the bank fails midway, and audits the failure", async () => {
    failFrom = hop.received.length + 3;
    const { response } = await callExport("GET", "ach", "status=sent&page_size=7");
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = "";
    const failure = await (async () => {
      for (;;) {
        const chunk = await reader.read().catch((error: unknown) => error as Error);
        if (chunk instanceof Error) return chunk;
        if (chunk.done) return undefined;
        received += new TextDecoder().decode(chunk.value);
      }
    })();
    expect(failure?.message).toContain("the bank answered 500");
    // The three pages that arrived were sent; the stream then errored instead of closing.
    expect(csvRecords(received).records.length).toBeGreaterThanOrEqual(3 * 7 - 1);
    expect(await recordsOf(response)).toEqual([
      expect.objectContaining({ action: "ach.export", outcome: "failed", after: null, error: expect.stringContaining("injected failure") }),
    ]);
  });

  const exportRefused = {
    error: {
      code: "bank_unavailable",
      message: expect.stringContaining("an export reads the bank's whole list from the bank itself, never from the console's copy"),
    },
  };

  it("answers a bank not answering its first page 503 bank_unavailable with Retry-After, never a file from the index, and audits the failure", async () => {
    failFrom = hop.received.length;
    const { response } = await callExport("GET", "ach", "status=sent");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("15");
    expect(await response.json()).toEqual(exportRefused);
    expect(await recordsOf(response)).toEqual([expect.objectContaining({ action: "ach.export", outcome: "failed" })]);
  });

  it("answers 503 with the breaker's wait while it is open, asking the bank nothing", async () => {
    handler = exportHandler(createBankCircuit("sandbox", { failures: 1, halfOpenAfterMs: 30_000 }));
    failFrom = hop.received.length;
    expect((await callExport("GET", "ach")).response.status).toBe(503);
    // The bank answers again, but the open breaker does not ask it until its wait is over.
    failFrom = Number.POSITIVE_INFINITY;
    const { response, bankRequests } = await callExport("GET", "ach", "status=sent");
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(20);
    expect(await response.json()).toEqual({ error: { ...exportRefused.error, message: expect.stringMatching(/^The bank is not answering since /) } });
    expect(bankRequests()).toBe(0);
  });

  it("sends nothing, and asks the bank nothing, when the export cannot be audited", async () => {
    const broken = connectDatabase(database.pool.options.connectionString!, schema);
    await broken.close();
    auditDatabase = () => broken.db;
    const { response, bankRequests } = await callExport("GET", "ach");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: "internal_error", message: expect.stringContaining("request id") } });
    expect(bankRequests()).toBe(0);
  });

  it.each([
    ["status=exploded", "status"],
    ["direction=sideways&status=sent", "direction"],
    ["from_date=yesterday", "from_date"],
    ["page_size=0", "page_size"],
    ["page_cursor=ach_1", "page_cursor"],
    ["colour=red", "colour"],
  ])("answers 400 naming the field for ?%s, asks the bank nothing and audits nothing", async (query, field) => {
    const before = await auditCount();
    const { response, bankRequests } = await callExport("GET", "ach", query);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "invalid_input", message: expect.stringContaining(field) } });
    expect(bankRequests()).toBe(0);
    expect(await auditCount()).toBe(before);
  });

  it.each(["webhook_delivery", "staff", "ach.csv"])("answers 404 for %s, which is not a bank list", async (resource) => {
    const { response, bankRequests } = await callExport("GET", resource);
    expect(response.status).toBe(404);
    expect(bankRequests()).toBe(0);
  });
});
