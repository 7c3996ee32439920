import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audited, listAuditRecords, recordAuditEvent } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-users";
import { createBankClient } from "@/lib/bank/client";
import type { LocalServer } from "@/lib/bank/test-support/local-server";
import { findOperation } from "@/lib/bank/client";
import type { Environment } from "@/lib/credentials/environments";
import { createLogger } from "@/lib/log";
import { roles, type Role } from "@/lib/permissions";
import { connectDatabase, type Database } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { exposedOperations } from "./bank-allowlist";
import { bankProxyResolver, type BankProxyDependencies } from "./bank-proxy";
import { createApiRoute } from "./route";
import { addedApplicationFields, startRecordingBank } from "./test-support/recording-bank";

// The proxy route handler, called directly with real Requests: a real audit trail (PGlite, console migrations) and a
// local bank that records what reaches it. Only the session is given, since next-auth needs a running Next server
// (the e2e permission matrix covers that path).

const consoleOrigin = "http://console.test";
const staff = (role: Role): StaffUser => ({ id: `stf_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false });

// The console's database (audit trail); the bank is a recording server, so one database target is enough here.
const database = migratedConsoleDatabase(testDatabaseTargets[0]!);
let bank: LocalServer;
let currentUser: StaffUser | null;
let environment: Environment;
let auditDatabase: () => Database<typeof schema>["db"];

function proxyDependencies(): BankProxyDependencies {
  return {
    activeEnvironment: async () => environment,
    bankClient: async () => createBankClient({ baseUrl: bank.url, auth: { type: "basic", keyId: "key_1", secret: "bank-secret-1" } }, { retries: 0, timeoutMs: 2_000 }),
    audited: (entry, perform, options) => audited(auditDatabase(), entry, perform, options),
    recordAuditEvent: (entry) => recordAuditEvent(auditDatabase(), entry),
  };
}

const handler = createApiRoute({ currentUser: async () => currentUser, log: createLogger({ level: "silent" }) })(
  bankProxyResolver(proxyDependencies()),
);

async function callProxy(method: string, bankPath: string, options: { body?: string | object; origin?: string | null } = {}) {
  const url = new URL(`/api/bank${bankPath}`, consoleOrigin);
  const headers = new Headers({ "content-type": "application/json" });
  const origin = options.origin === undefined ? consoleOrigin : options.origin;
  if (origin !== null) headers.set("origin", origin);
  const body = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const segments = url.pathname.slice("/api/bank/".length).split("/").map(decodeURIComponent);
  const response = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve({ path: segments }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? (JSON.parse(text) as Record<string, never>) : undefined };
}

const auditRecords = async () => listAuditRecords(database.db, {}, { limit: 1000 });

beforeAll(async () => {
  bank = await startRecordingBank();
});

afterAll(async () => {
  await bank?.close();
});

beforeEach(() => {
  bank.received.length = 0;
  currentUser = staff("admin");
  environment = "sandbox";
  auditDatabase = () => database.db;
});

/** Bad input for every mutating route, and the field its 400 must name. */
const badInputs: Array<{ method: string; path: string; body?: string | object; field: string }> = [
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: "not an object" }, field: "userdata" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: {}, amount: "1.00" }, field: "amount" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: { note: "x".repeat(2000) } }, field: "userdata" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: "{not json", field: "JSON" },
  { method: "PATCH", path: `/network_transfer/${"n".repeat(101)}`, body: { userdata: {} }, field: "id" },
  { method: "POST", path: "/card/card_1/uxt_access_token", body: {}, field: "dpop" },
  { method: "POST", path: "/simulation", body: { type: "digital_wallet_token.provisioning", simulation: {} }, field: "card_id" },
  { method: "POST", path: "/simulation", body: { type: "card.explode", simulation: { card_id: "card_1" } }, field: "type" },
  {
    method: "POST",
    path: "/simulation",
    body: { type: "digital_wallet_token.provisioning", simulation: { card_id: "card_1", fulfillment: { status: "maybe" } } },
    field: "simulation.fulfillment.status",
  },
  { method: "POST", path: "/webhook", body: { url: "not a url", event: "ach.update" }, field: "url" },
  { method: "POST", path: "/webhook", body: { url: "https://hooks.example/x", event: "ach.exploded" }, field: "event" },
  { method: "PATCH", path: "/webhook/webhook_1", body: { status: "error" }, field: "status" },
  { method: "DELETE", path: `/webhook/${"w".repeat(101)}`, field: "id" },
];

describe("the bank proxy route", () => {
  describe.each(badInputs)("$method $path with bad input naming $field", ({ method, path: bankPath, body, field }) => {
    it("answers 400 naming the field, sends nothing to the bank and writes no audit record", async () => {
      const before = (await auditRecords()).length;
      const response = await callProxy(method, bankPath, { body });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ error: { code: expect.stringMatching(/^invalid_/), message: expect.stringContaining(field) } });
      expect(bank.received).toEqual([]);
      expect(await auditRecords()).toHaveLength(before);
    });
  });

  it("has a bad-input case for every mutating operation it exposes", () => {
    const mutating = exposedOperations.map((exposed) => findOperation(exposed.operationId)).filter((operation) => operation.method !== "get");
    for (const operation of mutating) {
      const pattern = new RegExp(`^${operation.path.replace(/\{[a-z_]+\}/g, "[^/]+")}$`);
      const covered = badInputs.some((input) => input.method === operation.method.toUpperCase() && pattern.test(input.path));
      expect(covered, `${operation.method.toUpperCase()} ${operation.path}`).toBe(true);
    }
  });

  it("sends a valid change to the bank once and audits it with before and after", async () => {
    const response = await callProxy("PATCH", "/network_transfer/nt_1", { body: { userdata: { ticket: 2 } } });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ id: "nt_1", userdata: { ticket: 2 } });
    expect(bank.received.map((request) => `${request.method} ${request.url}`)).toEqual(["GET /network_transfer/nt_1", "PATCH /network_transfer/nt_1"]);
    const records = (await auditRecords()).filter((record) => record.requestId === response.headers.get("x-request-id"));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      action: "network_transfer.userdata.update",
      targetId: "nt_1",
      actorEmail: "admin@demo.bank",
      environment: "sandbox",
      outcome: "succeeded",
      before: { userdata: { ticket: 1 } },
      after: { userdata: { ticket: 2 } },
    });
  });

  it("does not perform a change whose audit record cannot be written", async () => {
    const broken = connectDatabase(database.pool.options.connectionString!, schema);
    await broken.close();
    auditDatabase = () => broken.db;
    const response = await callProxy("DELETE", "/webhook/webhook_1");
    expect(response.status).toBe(500);
    expect(response.json).toEqual({ error: { code: "internal_error", message: expect.stringContaining("request id") } });
    expect(bank.received.map((request) => request.method)).toEqual(["GET"]);
  });

  it("answers 201, 202 and 204 as the bank's operation does", async () => {
    const created = await callProxy("POST", "/webhook", { body: { url: "https://hooks.example/new", event: "ach.update" } });
    expect(created.status).toBe(201);
    const simulated = await callProxy("POST", "/simulation", { body: { type: "digital_wallet_token.provisioning", simulation: { card_id: "card_1" } } });
    expect(simulated.status).toBe(202);
    expect(simulated.text).toBe("");
    const deleted = await callProxy("DELETE", "/webhook/webhook_1");
    expect(deleted.status).toBe(204);
  });

  it("keeps the card toolkit's access token out of the audit trail", async () => {
    const response = await callProxy("POST", "/card/card_1/uxt_access_token", { body: { dpop: "proof.jwt.here" } });
    expect(response.json).toMatchObject({ access_token: "eyJ.card.token" });
    const [record] = (await auditRecords()).filter((entry) => entry.requestId === response.headers.get("x-request-id"));
    expect(record).toMatchObject({ action: "card.uxt_access_token.create", targetId: "card_1", after: { access_token: "[not recorded]", expires_in: 3600 } });
  });

  it("refuses simulations outside the sandbox environment without calling the bank", async () => {
    environment = "production";
    const response = await callProxy("POST", "/simulation", { body: { type: "digital_wallet_token.provisioning", simulation: { card_id: "card_1" } } });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: "sandbox_only" } });
    expect(bank.received).toEqual([]);
  });

  it.each([
    ["an unknown path", "GET", "/secret_admin_thing"],
    ["a method the allowlist does not expose for a path", "DELETE", "/network_transfer/nt_1"],
    ["a deeper path than any operation", "GET", "/ach/ach_1/extra"],
  ])("answers 404 for %s", async (_name, method, bankPath) => {
    const response = await callProxy(method, bankPath);
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    expect(bank.received).toEqual([]);
  });

  it("answers 401 without a session, before anything else", async () => {
    currentUser = null;
    const response = await callProxy("GET", "/network_transfer/nt_1");
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    expect(bank.received).toEqual([]);
  });

  it.each([
    ["viewer", "PATCH", "/network_transfer/nt_1", { userdata: {} }],
    ["compliance", "POST", "/webhook", { url: "https://hooks.example/x", event: "ach.update" }],
    ["viewer", "POST", "/simulation", { type: "digital_wallet_token.provisioning", simulation: { card_id: "card_1" } }],
    ["compliance", "POST", "/card/card_1/uxt_access_token", { dpop: "x" }],
  ] as const)("answers 403 to a %s asking %s %s", async (role, method, bankPath, body) => {
    currentUser = staff(role);
    const response = await callProxy(method, bankPath, { body });
    expect(response.status).toBe(403);
    expect(bank.received).toEqual([]);
  });

  it.each([
    ["from another site", "https://evil.example"],
    ["without an Origin header", null],
  ])("refuses a change %s", async (_name, origin) => {
    const response = await callProxy("PATCH", "/network_transfer/nt_1", { body: { userdata: {} }, origin });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: "cross_origin" } });
    expect(bank.received).toEqual([]);
  });

  it("gives every answer its own request id", async () => {
    const first = await callProxy("GET", "/network_transfer/nt_1");
    const second = await callProxy("GET", "/nowhere");
    expect(first.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  });

  it("passes the bank's 404 on with the bank's message", async () => {
    const response = await callProxy("GET", "/network_transfer/nt_missing");
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: "not_found", message: "No such object: /network_transfer/nt_missing" } });
  });

  it("answers 502 with a clear message and no stack trace when the bank is unreachable", async () => {
    const stopped = await startRecordingBank();
    await stopped.close();
    const unreachable = createApiRoute({ currentUser: async () => currentUser, log: createLogger({ level: "silent" }) })(
      bankProxyResolver({
        ...proxyDependencies(),
        bankClient: async () => createBankClient({ baseUrl: stopped.url, auth: { type: "bearer", token: "t" } }, { retries: 1, retryBaseMs: 1 }),
      }),
    );
    const response = await unreachable(new Request(`${consoleOrigin}/api/bank/ach`), { params: Promise.resolve({ path: ["ach"] }) });
    expect(response.status).toBe(502);
    const body = await response.json();
    expect(body).toEqual({ error: { code: "bank_unreachable", message: expect.stringContaining("could not be reached") } });
    expect(JSON.stringify(body)).not.toMatch(/\bat .*\.ts:\d+/);
  });

  describe("personal data on applications", () => {
    it("is masked for a viewer, in a single application and in a list", async () => {
      currentUser = staff("viewer");
      const one = await callProxy("GET", "/apply/person_application/apsn_1");
      expect(one.json).toMatchObject({ identification_number: "*******6789", date_of_birth: "****-**-**", email_address: "a***@example.com", first_name: "Ada" });
      const list = await callProxy("GET", "/apply/person_application?page_size=1");
      expect(list.json).toMatchObject({ data: [{ phone_number: "********0143" }] });
    });

    it("masks a field the allowlist does not name, in a single application and in a list, for every role", async () => {
      Object.assign(addedApplicationFields, { full_ssn: "123-45-6789", owner: { date_of_birth: "1970-01-01" } });
      try {
        for (const role of roles) {
          currentUser = staff(role);
          const one = await callProxy("GET", "/apply/person_application/apsn_1");
          const list = await callProxy("GET", "/apply/person_application?page_size=1");
          for (const shown of [one.json, (list.json as unknown as { data: unknown[] }).data[0]]) {
            expect(shown, role).toMatchObject({ full_ssn: "[masked]", owner: "[masked]", first_name: "Ada" });
          }
          expect(one.text + list.text).not.toContain("1970-01-01");
        }
      } finally {
        for (const field of Object.keys(addedApplicationFields)) delete addedApplicationFields[field];
      }
    });

    it("masks userdata on other resources too", async () => {
      currentUser = staff("operations");
      expect((await callProxy("GET", "/network_transfer/nt_1")).json).toMatchObject({ id: "nt_1", userdata: "[masked]" });
    });

    it("answers the current userdata, and only it, to the role that may edit it, audited", async () => {
      currentUser = staff("operations");
      const response = await callProxy("POST", "/network_transfer/nt_1/userdata");
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.json).toEqual({ userdata: { ticket: 1 }, updated_at: expect.any(String) });
      const records = (await auditRecords()).filter((record) => record.requestId === response.headers.get("x-request-id"));
      expect(records).toEqual([expect.objectContaining({ action: "network_transfer.userdata.read", targetId: "nt_1", role: "operations" })]);
    });

    it.each(["viewer", "compliance"] as const)("never answers the current userdata to %s, and the bank is not asked", async (role) => {
      currentUser = staff(role);
      const response = await callProxy("POST", "/network_transfer/nt_1/userdata");
      expect(response.status).toBe(403);
      expect(bank.received).toEqual([]);
    });

    it("names the resource of every read it exposes, so no bank answer leaves unmasked", () => {
      const reads = exposedOperations.filter((exposed) => findOperation(exposed.operationId).method === "get");
      expect(reads.filter((exposed) => !exposed.resource).map((exposed) => exposed.operationId)).toEqual([]);
    });

    it("points a list's page_next at the console, not at the bank", async () => {
      const list = await callProxy("GET", "/apply/person_application?page_size=1");
      expect(list.json).toMatchObject({ page_next: "/api/bank/apply/person_application?page_size=1&page_cursor=apsn_1" });
    });

    it("is revealed to compliance by a POST, uncached, with one audit record of the reveal", async () => {
      currentUser = staff("compliance");
      const response = await callProxy("POST", "/apply/person_application/apsn_1/reveal");
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.json).toMatchObject({ identification_number: "123-45-6789", date_of_birth: "1985-04-12" });
      const records = (await auditRecords()).filter((record) => record.requestId === response.headers.get("x-request-id"));
      expect(records).toEqual([expect.objectContaining({ action: "person_application.reveal", targetId: "apsn_1", role: "compliance" })]);
    });

    it("is never revealed by a GET, whatever its query says", async () => {
      currentUser = staff("compliance");
      const response = await callProxy("GET", "/apply/person_application/apsn_1?reveal=true");
      expect(response.status).toBe(400);
      expect(response.text).not.toContain("123-45-6789");
      expect((await auditRecords()).filter((record) => record.requestId === response.headers.get("x-request-id"))).toEqual([]);
    });

    it("is not revealed to a POST from another origin", async () => {
      currentUser = staff("compliance");
      const response = await callProxy("POST", "/apply/person_application/apsn_1/reveal", { origin: "https://evil.example" });
      expect(response.status).toBe(403);
      expect(bank.received).toEqual([]);
    });

    it("is not revealed when the reveal cannot be audited", async () => {
      currentUser = staff("compliance");
      const broken = connectDatabase(database.pool.options.connectionString!, schema);
      await broken.close();
      auditDatabase = () => broken.db;
      const response = await callProxy("POST", "/apply/person_application/apsn_1/reveal");
      expect(response.status).toBe(500);
      expect(response.text).not.toContain("123-45-6789");
    });

    it.each(["viewer", "operations"] as const)("is never revealed to %s, and the bank is not asked", async (role) => {
      currentUser = staff(role);
      const response = await callProxy("POST", "/apply/person_application/apsn_1/reveal");
      expect(response.status).toBe(403);
      expect(bank.received).toEqual([]);
    });
  });
});
