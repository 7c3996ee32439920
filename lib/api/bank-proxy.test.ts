import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audited, listAuditRecords, recordAuditEvent } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-users";
import { createBankClient, findOperation, type BankClient } from "@/lib/bank/client";
import { dpopProof } from "@/lib/bank/test-support/dpop-proof";
import { startLocalServer } from "@/lib/bank/test-support/local-server";
import type { Environment } from "@/lib/credentials/environments";
import { connectDatabase, type Database } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import { maskForViewer, type ApplicationKind } from "@/lib/pii";
import { roles, type Role } from "@/lib/permissions";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { auditRecordsOf, expectedAuditRecord } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { exposedOperations } from "./bank-allowlist";
import { bankProxyResolver, type BankProxyDependencies } from "./bank-proxy";
import { createApiRoute } from "./route";
import { startRecordingBank, type RecordingBank } from "./test-support/recording-bank";

// The proxy route handler, called directly with real Requests, in front of the real sandbox bank (started once for
// this file, demo data in memory) through a recording hop, with a real audit trail on every database target. Only the
// session is given, since next-auth needs a running Next server (the e2e permission matrix covers that path).

const consoleOrigin = "http://console.test";
const bankKey = { id: "key_bank_proxy_test", secret: "bank-proxy-test-secret-0123456789" };
const staff = (role: Role): StaffUser => ({ id: `stf_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false });

let sandbox: RunningSandbox;
let dropSandboxDatabase: (() => Promise<void>) | undefined;
let bank: RecordingBank;
/** The sandbox bank read directly, not through the recording hop: the truth a test compares the proxy's answers with. */
let direct: BankClient;
/** Ids from the demo seed, read once the sandbox bank is up. */
const seed = { networkTransfer: "", card: "", person_application: "", business_application: "" };

beforeAll(async () => {
  bank = await startRecordingBank();
  // The bank's public URL is the recording hop, so the links it writes (page_next) and DPoP's htu name the hop.
  // On a fresh database of the first target: in memory (PGlite) unless a quick rerun narrowed the targets.
  const sandboxDatabase = await testDatabaseTargets[0]!.create();
  dropSandboxDatabase = sandboxDatabase.drop;
  sandbox = await startSandbox({ databaseUrl: sandboxDatabase.url, seed: "demo", demoKey: bankKey, publicUrl: bank.url, log: createLogger({ level: "error" }) });
  bank.forwardTo(sandbox.listenUrl);
  direct = createBankClient({ baseUrl: sandbox.listenUrl, auth: { type: "basic", keyId: bankKey.id, secret: bankKey.secret } }, { retries: 0, timeoutMs: 30_000 });
  seed.networkTransfer = (await direct.list_network_transfer({ page_size: 1 })).data[0]!.id;
  seed.card = (await direct.list_card({ page_size: 1, status: "active" })).data[0]!.id;
  // Applications whose personal fields are all filled, so masking has something to hide in every field.
  seed.person_application = (await direct.list_person_application({ page_size: 100 })).data.find(
    (application) => application.identification_number && application.email_address,
  )!.id;
  seed.business_application = (await direct.list_business_application({ page_size: 100 })).data.find(
    (application) => application.identification_number && application.tin,
  )!.id;
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await dropSandboxDatabase?.();
  await bank?.close();
});

const newWebhook = () => direct.create_webhook({ url: `https://hooks.example/${randomUUID()}`, event: "ach.update" });

/** One audited bank mutation: how to make a valid request of it, and what the audit record's target and before are. */
interface Mutation {
  action: string;
  method: "POST" | "PATCH" | "DELETE";
  status: number;
  /** The bank requests one call of it sends, in order. */
  sends: string[];
  prepare(): Promise<{ path: string; body?: object; target: string | null; before: unknown; readBack?: () => Promise<unknown> }>;
}

const mutations: Mutation[] = [
  {
    action: "network_transfer.userdata.update",
    method: "PATCH",
    status: 200,
    sends: ["GET", "PATCH"],
    prepare: async () => ({
      path: `/network_transfer/${seed.networkTransfer}`,
      body: { userdata: { ticket: randomUUID() } },
      target: seed.networkTransfer,
      before: await direct.get_network_transfer(seed.networkTransfer),
      readBack: () => direct.get_network_transfer(seed.networkTransfer),
    }),
  },
  {
    action: "card.uxt_access_token.create",
    method: "POST",
    status: 200,
    sends: ["POST"],
    prepare: async () => ({
      path: `/card/${seed.card}/uxt_access_token`,
      body: { dpop: await dpopProof(`${bank.url}/card/${seed.card}/uxt_access_token`) },
      target: seed.card,
      before: null,
    }),
  },
  {
    action: "simulation.run",
    method: "POST",
    status: 202,
    sends: ["POST"],
    prepare: async () => ({
      path: "/simulation",
      body: { type: "digital_wallet_token.provisioning", simulation: { card_id: seed.card } },
      target: seed.card,
      before: null,
      readBack: async () => (await direct.list_digital_wallet_token({ card_id: seed.card, page_size: 100 })).data.length,
    }),
  },
  {
    action: "webhook.create",
    method: "POST",
    status: 201,
    sends: ["POST"],
    prepare: async () => {
      const url = `https://hooks.example/${randomUUID()}`;
      return {
        path: "/webhook",
        body: { url, event: "ach.update" },
        target: null,
        before: null,
        readBack: async () => (await direct.list_webhook({ page_size: 100 })).data.filter((hook) => hook.url === url),
      };
    },
  },
  {
    action: "webhook.update",
    method: "PATCH",
    status: 200,
    sends: ["GET", "PATCH"],
    prepare: async () => {
      const hook = await newWebhook();
      return { path: `/webhook/${hook.id}`, body: { status: "disabled" }, target: hook.id, before: hook, readBack: () => direct.get_webhook(hook.id) };
    },
  },
  {
    action: "webhook.delete",
    method: "DELETE",
    status: 204,
    sends: ["GET", "DELETE"],
    prepare: async () => {
      const hook = await newWebhook();
      return { path: `/webhook/${hook.id}`, target: hook.id, before: hook, readBack: () => direct.get_webhook(hook.id) };
    },
  },
];

/** Bad input for every mutating route, and the field its 400 must name. */
const badInputs: Array<{ method: string; path: string; body?: string | object; field: string }> = [
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: "not an object" }, field: "userdata" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: {}, amount: "1.00" }, field: "amount" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: { userdata: { note: "x".repeat(2000) } }, field: "userdata" },
  { method: "PATCH", path: "/network_transfer/nt_1", body: "{not json", field: "JSON" },
  { method: "PATCH", path: `/network_transfer/${"n".repeat(101)}`, body: { userdata: {} }, field: "id" },
  { method: "POST", path: "/card/card_1/uxt_access_token", body: {}, field: "dpop" },
  { method: "POST", path: "/card/card_1/uxt_access_token", body: "dpop=x", field: "JSON" },
  { method: "POST", path: "/simulation", body: { type: "digital_wallet_token.provisioning", simulation: {} }, field: "card_id" },
  { method: "POST", path: "/simulation", body: { type: "card.explode", simulation: { card_id: "card_1" } }, field: "type" },
  { method: "POST", path: "/simulation", body: "[1, 2", field: "JSON" },
  {
    method: "POST",
    path: "/simulation",
    body: { type: "digital_wallet_token.provisioning", simulation: { card_id: "card_1", fulfillment: { status: "maybe" } } },
    field: "simulation.fulfillment.status",
  },
  { method: "POST", path: "/webhook", body: { url: "not a url", event: "ach.update" }, field: "url" },
  { method: "POST", path: "/webhook", body: { url: "https://hooks.example/x", event: "ach.exploded" }, field: "event" },
  { method: "PATCH", path: "/webhook/webhook_1", body: { status: "error" }, field: "status" },
  { method: "PATCH", path: "/webhook/webhook_1", body: { url: "ftp:/nowhere" }, field: "url" },
  { method: "DELETE", path: `/webhook/${"w".repeat(101)}`, field: "id" },
];

/** Reads with a query the bank's contract refuses, and the parameter the 400 must name. */
const badQueries: Array<{ path: string; field: string }> = [
  { path: "/ach?page_size=0", field: "page_size" },
  { path: "/ach?page_size=ten", field: "page_size" },
  { path: "/network_transfer?colour=red", field: "colour" },
  { path: "/card?status=melted", field: "status" },
  { path: "/ach/ach_1?page_size=1", field: "page_size" },
  { path: "/apply/person_application/apsn_1?reveal=maybe", field: "reveal" },
];

/** The personal fields each application kind must never show unmasked to a role without `pii:reveal`. */
const personalFields: Record<ApplicationKind, string[]> = {
  person_application: ["identification_number", "date_of_birth", "phone_number", "email_address", "secondary_email_address"],
  business_application: ["identification_number", "tin", "phone_number"],
};

describe.each(testDatabaseTargets)("the bank proxy route, audit trail on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  let currentUser: StaffUser | null;
  let environment: Environment;
  let auditDatabase: () => Database<typeof schema>["db"];

  const proxyDependencies = (): BankProxyDependencies => ({
    activeEnvironment: async () => environment,
    bankClient: async () => createBankClient({ baseUrl: bank.url, auth: { type: "basic", keyId: bankKey.id, secret: bankKey.secret } }, { retries: 0, timeoutMs: 30_000 }),
    audited: (entry, perform, options) => audited(auditDatabase(), entry, perform, options),
    recordAuditEvent: (entry) => recordAuditEvent(auditDatabase(), entry),
  });
  const proxyWith = (dependencies: BankProxyDependencies) =>
    createApiRoute({ currentUser: async () => currentUser, log: createLogger({ level: "silent" }) })(bankProxyResolver(dependencies));
  const handler = proxyWith(proxyDependencies());

  async function callProxy(method: string, bankPath: string, options: { body?: string | object; origin?: string | null; through?: typeof handler } = {}) {
    const url = new URL(`/api/bank${bankPath}`, consoleOrigin);
    const headers = new Headers({ "content-type": "application/json" });
    const origin = options.origin === undefined ? consoleOrigin : options.origin;
    if (origin !== null) headers.set("origin", origin);
    const body = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    const segments = url.pathname.slice("/api/bank/".length).split("/").map(decodeURIComponent);
    const response = await (options.through ?? handler)(new Request(url, { method, headers, body }), { params: Promise.resolve({ path: segments }) });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      requestId: response.headers.get("x-request-id"),
      text,
      json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
  }
  type ProxyAnswer = Awaited<ReturnType<typeof callProxy>>;

  const allAuditRecords = () => listAuditRecords(database.db, {}, { limit: 10_000 });
  /** The audit records written while answering `response` (matched by its request id). */
  const recordsOf = (response: ProxyAnswer) => auditRecordsOf(database, response.requestId);
  const sentToBank = () => bank.received.map((request) => `${request.method} ${new URL(request.url, bank.url).pathname}`);
  /** A database whose connections are closed: every audit write fails. */
  const unwritableAuditTrail = async () => {
    const broken = connectDatabase(database.pool.options.connectionString!, schema);
    await broken.close();
    auditDatabase = () => broken.db;
  };
  const expectedRecord = (response: ProxyAnswer, fields: Parameters<typeof expectedAuditRecord>[1]) =>
    expectedAuditRecord({ actor: currentUser!, environment, requestId: response.requestId! }, fields);

  beforeEach(() => {
    bank.received.length = 0;
    currentUser = staff("operations");
    environment = "sandbox";
    auditDatabase = () => database.db;
  });

  describe.each(badInputs)("$method $path with bad input naming $field", ({ method, path: bankPath, body, field }) => {
    it("answers 400 naming the field, sends nothing to the bank and writes no audit record", async () => {
      const before = (await allAuditRecords()).length;
      const response = await callProxy(method, bankPath, { body });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ error: { code: expect.stringMatching(/^invalid_/), message: expect.stringContaining(field) } });
      expect(bank.received).toEqual([]);
      expect(await allAuditRecords()).toHaveLength(before);
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

  it.each(badQueries)("answers 400 naming $field to GET $path, and asks the bank nothing", async ({ path: bankPath, field }) => {
    currentUser = staff("compliance");
    const response = await callProxy("GET", bankPath);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { code: "invalid_input", message: expect.stringContaining(field) } });
    expect(bank.received).toEqual([]);
  });

  it("has a success and a failure case for every audited operation it exposes", () => {
    const audited = exposedOperations.flatMap((exposed) => (exposed.audit ? [exposed.audit.action] : []));
    expect(mutations.map((mutation) => mutation.action).sort()).toEqual(audited.sort());
  });

  describe.each(mutations)("the audited change $action", (mutation) => {
    it(`answers ${mutation.status}, sends the change to the bank once and records actor, target, before, after and success`, async () => {
      const request = await mutation.prepare();
      const countBefore = await request.readBack?.();
      const response = await callProxy(mutation.method, request.path, { body: request.body });
      expect(response.status, response.text).toBe(mutation.status);
      expect(sentToBank()).toEqual(mutation.sends.map((method) => `${method} ${request.path}`));
      const answer = response.json ?? null;
      // What the audit trail keeps of the answer: all of it, except a card toolkit token (a credential).
      const after = answer && "access_token" in answer ? { ...(answer as object), access_token: "[not recorded]" } : answer;
      expect(await recordsOf(response)).toEqual([
        expectedRecord(response, { action: mutation.action, targetId: request.target, before: request.before, after, outcome: "succeeded", error: null }),
      ]);
      const state = await request.readBack?.().catch((error: unknown) => error);
      switch (mutation.action) {
        case "network_transfer.userdata.update":
        case "webhook.update":
          expect(state).toEqual(answer);
          expect(answer).toMatchObject(request.body!);
          break;
        case "webhook.create":
          expect(state).toEqual([answer]);
          break;
        case "webhook.delete":
          expect(state).toMatchObject({ kind: "rejected", status: 404 });
          break;
        case "simulation.run":
          expect(state).toBe((countBefore as number) + 1);
          break;
        case "card.uxt_access_token.create":
          expect(answer).toMatchObject({ token_type: "DPoP", expires_in: 3600, access_token: expect.stringMatching(/^ey/) });
          expect(JSON.stringify(await allAuditRecords())).not.toContain(String(answer!.access_token));
          break;
        default:
          throw new Error(`no check of the bank's state after ${mutation.action}`);
      }
    });

    it("records the failure, with its reason, when the bank fails the change", async () => {
      const request = await mutation.prepare();
      const stateBefore = await request.readBack?.();
      bank.failNext(mutation.method, request.path, 503);
      const response = await callProxy(mutation.method, request.path, { body: request.body });
      expect(response.status).toBe(502);
      expect(response.json).toEqual({ error: { code: "bank_error", message: "The bank failed to handle the request (HTTP 503)." } });
      expect(sentToBank()).toEqual(mutation.sends.map((method) => `${method} ${request.path}`));
      expect(await recordsOf(response)).toEqual([
        expectedRecord(response, {
          action: mutation.action,
          targetId: request.target,
          before: request.before,
          after: null,
          outcome: "failed",
          error: expect.stringContaining("503"),
        }),
      ]);
      expect(await request.readBack?.()).toEqual(stateBefore);
    });

    it("is not performed when its audit record cannot be written", async () => {
      const request = await mutation.prepare();
      const stateBefore = await request.readBack?.();
      await unwritableAuditTrail();
      const response = await callProxy(mutation.method, request.path, { body: request.body });
      expect(response.status).toBe(500);
      expect(response.json).toEqual({ error: { code: "internal_error", message: expect.stringContaining("request id") } });
      // Only the read of the state before (when there is one) reached the bank, never the change.
      expect(sentToBank()).toEqual(mutation.sends.filter((method) => method === "GET").map((method) => `${method} ${request.path}`));
      expect(await request.readBack?.()).toEqual(stateBefore);
    });

    it.each(["viewer", "compliance"] as const)("is refused to a %s with 403: nothing reaches the bank, nothing is recorded", async (role) => {
      currentUser = staff(role);
      const request = await mutation.prepare();
      const response = await callProxy(mutation.method, request.path, { body: request.body });
      expect(response.status).toBe(403);
      expect(response.json).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
      expect(bank.received).toEqual([]);
      expect(await recordsOf(response)).toEqual([]);
    });
  });

  it("records the bank's own refusal of a simulation as a failure with the bank's reason", async () => {
    const body = {
      type: "digital_wallet_token.provisioning",
      simulation: { card_id: seed.card, token_service_provider: { token_requestor_name: "APPLE_PAY", token_requestor_id: "40010075001" } },
    };
    const response = await callProxy("POST", "/simulation", { body });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { code: "bank_rejected", message: expect.stringContaining("does not belong to APPLE_PAY") } });
    expect(await recordsOf(response)).toEqual([
      expectedRecord(response, { action: "simulation.run", targetId: seed.card, before: null, after: null, outcome: "failed", error: expect.stringContaining("does not belong to APPLE_PAY") }),
    ]);
  });

  it("records the bank's refusal of a card token whose DPoP proof names another URL", async () => {
    const body = { dpop: await dpopProof(`${bank.url}/card/card_someone_else/uxt_access_token`) };
    const response = await callProxy("POST", `/card/${seed.card}/uxt_access_token`, { body });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: { code: "bank_rejected", message: expect.stringContaining("htu") } });
    expect(await recordsOf(response)).toEqual([
      expectedRecord(response, { action: "card.uxt_access_token.create", targetId: seed.card, before: null, after: null, outcome: "failed", error: expect.stringContaining("htu") }),
    ]);
  });

  it("answers 404 with the bank's message for a change to an object the bank does not have, and records no change", async () => {
    const response = await callProxy("PATCH", "/webhook/webhook_missing", { body: { status: "disabled" } });
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: "not_found", message: expect.stringContaining("webhook_missing") } });
    expect(sentToBank()).toEqual(["GET /webhook/webhook_missing"]);
    expect(await recordsOf(response)).toEqual([]);
  });

  it("refuses simulations outside the sandbox environment without calling the bank", async () => {
    environment = "production";
    const response = await callProxy("POST", "/simulation", { body: { type: "digital_wallet_token.provisioning", simulation: { card_id: seed.card } } });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: "sandbox_only" } });
    expect(bank.received).toEqual([]);
  });

  it("answers 503 naming the environment when it has no bank connection, for reads and changes alike", async () => {
    environment = "production";
    const unconfigured = proxyWith({ ...proxyDependencies(), bankClient: async () => null });
    for (const [method, bankPath, body] of [["GET", "/ach"], ["PATCH", `/network_transfer/${seed.networkTransfer}`, { userdata: {} }]] as const) {
      const response = await callProxy(method, bankPath, { body, through: unconfigured });
      expect(response.status).toBe(503);
      expect(response.json).toEqual({ error: { code: "bank_not_configured", message: expect.stringContaining("production environment") } });
    }
    expect(await allAuditRecords()).not.toContainEqual(expect.objectContaining({ environment: "production", action: "network_transfer.userdata.update" }));
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
    const response = await callProxy("GET", `/network_transfer/${seed.networkTransfer}`);
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    expect(bank.received).toEqual([]);
  });

  it.each([
    ["from another site", "https://evil.example"],
    ["without an Origin header", null],
  ])("refuses a change %s", async (_name, origin) => {
    const response = await callProxy("PATCH", `/network_transfer/${seed.networkTransfer}`, { body: { userdata: {} }, origin });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { code: "cross_origin" } });
    expect(bank.received).toEqual([]);
  });

  it("gives every answer its own request id", async () => {
    const first = await callProxy("GET", `/network_transfer/${seed.networkTransfer}`);
    const second = await callProxy("GET", "/nowhere");
    expect(first.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.requestId).not.toBe(first.requestId);
  });

  it("answers a read with the bank's object, masked by its allowlist", async () => {
    const response = await callProxy("GET", `/network_transfer/${seed.networkTransfer}`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual(maskForViewer("network_transfer", await direct.get_network_transfer(seed.networkTransfer)));
    expect(sentToBank()).toEqual([`GET /network_transfer/${seed.networkTransfer}`]);
  });

  it("answers a network transfer's current userdata, and only it, to the role that may edit it, uncached and audited", async () => {
    currentUser = staff("operations");
    const response = await callProxy("POST", `/network_transfer/${seed.networkTransfer}/userdata`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const transfer = await direct.get_network_transfer(seed.networkTransfer);
    expect(response.json).toEqual({ userdata: transfer.userdata, updated_at: transfer.updated_at });
    expect(await recordsOf(response)).toEqual([
      expect.objectContaining({ action: "network_transfer.userdata.read", targetId: seed.networkTransfer, role: "operations", outcome: "succeeded" }),
    ]);
  });

  it.each(["viewer", "compliance"] as const)("never answers a network transfer's userdata to %s, and the bank is not asked", async (role) => {
    currentUser = staff(role);
    const response = await callProxy("POST", `/network_transfer/${seed.networkTransfer}/userdata`);
    expect(response.status).toBe(403);
    expect(bank.received).toEqual([]);
    expect(await recordsOf(response)).toEqual([]);
  });

  it("passes the query on and points a list's page_next at the console, which serves the next page", async () => {
    const first = await callProxy("GET", "/ach?page_size=2&status=sent");
    expect(first.status).toBe(200);
    const page = first.json as unknown as { data: Array<{ id: string; status: string }>; page_next: string };
    const expected = (await direct.list_ach({ page_size: 4, status: "sent" })).data.map((item) => maskForViewer("ach", item));
    expect(page.data).toEqual(expected.slice(0, 2));
    expect(page.page_next).toMatch(/^\/api\/bank\/ach\?/);
    const next = await callProxy("GET", page.page_next.slice("/api/bank".length));
    expect((next.json as unknown as { data: unknown[] }).data).toEqual(expected.slice(2, 4));
  });

  it("passes the bank's 404 on with the bank's message", async () => {
    const response = await callProxy("GET", "/network_transfer/nt_missing");
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: "not_found", message: expect.stringContaining("nt_missing") } });
  });

  it("answers 502 with a clear message and no stack trace when the bank is unreachable", async () => {
    const stopped = await startLocalServer(() => undefined);
    await stopped.close();
    const unreachable = proxyWith({
      ...proxyDependencies(),
      bankClient: async () => createBankClient({ baseUrl: stopped.url, auth: { type: "bearer", token: "t" } }, { retries: 1, retryBaseMs: 1 }),
    });
    const response = await callProxy("GET", "/ach", { through: unreachable });
    expect(response.status).toBe(502);
    expect(response.json).toEqual({ error: { code: "bank_unreachable", message: expect.stringContaining("could not be reached") } });
    expect(response.text).not.toMatch(/\bat .*\.ts:\d+/);
  });

  // Masking and reveal: issue 11 moves masking to a per-resource allowlist and reveal to a POST; the helpers below
  // are the one place that knows how a reveal is asked for and which fields are personal.
  describe.each(["person_application", "business_application"] as const)("personal data on a %s", (kind) => {
    const applicationPath = () => `/apply/${kind}/${seed[kind]}`;
    const reveal = () => callProxy("POST", `${applicationPath()}/reveal`);
    const raw = () => direct.call(`get_${kind}`, { params: { id: seed[kind] } }) as Promise<Record<string, unknown>>;

    /** `shown` is `original` masked by the allowlist (lib/pii.ts): no personal value appears anywhere in the answer. */
    function expectMasked(shown: Record<string, unknown>, original: Record<string, unknown>) {
      expect(shown).toEqual(maskForViewer(kind, original));
      const text = JSON.stringify(shown);
      const personal = personalFields[kind].filter((field) => typeof original[field] === "string" && original[field] !== "");
      expect(personal.length).toBeGreaterThan(1);
      for (const field of personal) expect(text, `${field} of ${original.id}`).not.toContain(original[field] as string);
    }

    it.each(["viewer", "operations"] as const)("is masked for %s in a single application, and nothing is recorded", async (role) => {
      currentUser = staff(role);
      const response = await callProxy("GET", applicationPath());
      expect(response.status).toBe(200);
      expectMasked(response.json!, await raw());
      expect(await recordsOf(response)).toEqual([]);
    });

    it("is masked in every item of a list", async () => {
      currentUser = staff("viewer");
      const response = await callProxy("GET", `/apply/${kind}?page_size=10`);
      const shown = (response.json as unknown as { data: Array<Record<string, unknown>> }).data;
      const original = ((await direct.call(`list_${kind}`, { query: { page_size: 10 } })) as { data: Array<Record<string, unknown>> }).data;
      expect(shown.map((item) => item.id)).toEqual(original.map((item) => item.id));
      for (const [index, item] of shown.entries()) expectMasked(item, original[index]!);
    });

    it("stays masked for compliance: a GET never reveals, whatever its query says", async () => {
      currentUser = staff("compliance");
      const response = await callProxy("GET", applicationPath());
      expectMasked(response.json!, await raw());
      expect(await recordsOf(response)).toEqual([]);
      const asked = await callProxy("GET", `${applicationPath()}?reveal=true`);
      expect(asked.status).toBe(400);
      expect(await recordsOf(asked)).toEqual([]);
    });

    it("masks a field the allowlist does not name, in a single object and in a list, for every role", async () => {
      const stop = bank.addFields(`/apply/${kind}`, { full_ssn: "123-45-6789", owner: { date_of_birth: "1970-01-01" } });
      try {
        for (const role of roles) {
          currentUser = staff(role);
          const one = await callProxy("GET", applicationPath());
          const list = await callProxy("GET", `/apply/${kind}?page_size=2`);
          for (const shown of [one.json, (list.json as unknown as { data: unknown[] }).data[0]]) {
            expect(shown, role).toMatchObject({ full_ssn: "[masked]", owner: "[masked]" });
          }
          expect(one.text + list.text).not.toContain("1970-01-01");
          expect(one.text + list.text).not.toContain("123-45-6789");
        }
      } finally {
        stop();
      }
    });

    it("is not revealed to a POST from another origin", async () => {
      currentUser = staff("compliance");
      const response = await callProxy("POST", `${applicationPath()}/reveal`, { origin: "https://evil.example" });
      expect(response.status).toBe(403);
      expect(bank.received).toEqual([]);
    });

    it.each(["compliance", "admin"] as const)("is revealed to %s on request, exactly as the bank has it, with one audit record", async (role) => {
      currentUser = staff(role);
      const response = await reveal();
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.json).toEqual(await raw());
      expect(await recordsOf(response)).toEqual([
        expectedRecord(response, { action: `${kind}.reveal`, targetId: seed[kind], before: null, after: null, outcome: "succeeded", error: null }),
      ]);
    });

    it("is not revealed when the reveal cannot be audited", async () => {
      currentUser = staff("compliance");
      await unwritableAuditTrail();
      const response = await reveal();
      expect(response.status).toBe(500);
      const original = await raw();
      for (const field of personalFields[kind]) if (typeof original[field] === "string") expect(response.text).not.toContain(original[field]);
    });

    it.each(["viewer", "operations"] as const)("is never revealed to %s, the bank is not asked and nothing is recorded", async (role) => {
      currentUser = staff(role);
      const response = await reveal();
      expect(response.status).toBe(403);
      expect(bank.received).toEqual([]);
      expect(await recordsOf(response)).toEqual([]);
    });
  });
});
