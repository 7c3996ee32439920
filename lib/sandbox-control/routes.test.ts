import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiRoute } from "@/lib/api/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { audited, listAuditRecords, recordAuditEvent } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createBankClient } from "@/lib/bank/client";
import type { BankTarget } from "@/lib/bank/transport";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { runBackfill } from "@/lib/index/backfill";
import { ensureReceiverCredentials } from "@/lib/index/receiver-credentials";
import { purgeEnvironment } from "@/lib/index/retention";
import { recordObservations } from "@/lib/index/store";
import { ensureSubscriptions } from "@/lib/index/subscriptions";
import { createLogger } from "@/lib/log";
import type { Role } from "@/lib/permissions";
import { maskForViewer } from "@/lib/pii";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { expectDocumentedAnswer, fuzzComponent, fuzzParameters, fuzzSeeds } from "@/tests/support/fuzz";
import { sandboxControlResolver, snapshotMaxBytes } from "./routes";
import { movableResources as movable } from "./schemas";

// The console's /api/sandbox/... routes through the console's one route wrapper, in front of the sandbox bank started
// for real (demo seed) and a real console database (audit trail, index) on every database target. Only the session
// is given (next-auth needs a running Next server; the e2e permission matrix covers that path).

const consoleOrigin = "http://console.test";
const bankKey = { id: "key_sandbox_routes", secret: "sandbox-routes-test-secret-0123456789" };
const log = createLogger({ level: "silent" });
const staff = (role: Role): StaffUser => ({ id: `stf_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false });

type Answer = {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown> & { error?: Record<string, unknown> };
  requestId: string;
};

/** Every route of the interface, with a body it accepts. */
const routes: Array<{ method: string; path: string; body?: unknown; permission: "bank:read" | "sandbox:control" | "sandbox:reset" }> = [
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
const byPermission = (permission: string) => routes.filter((route) => route.permission === permission);

describe.each(testDatabaseTargets)("the console's sandbox routes on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const encryptionKey = randomBytes(32);
  let sandbox: RunningSandbox;
  let quiet: RunningSandbox;
  const drops: Array<() => Promise<void>> = [];
  const session = { user: null as StaffUser | null, environment: "sandbox" as Environment, target: undefined as BankTarget | undefined };
  let backfill: Promise<unknown> | undefined;

  beforeAll(async () => {
    const bankDatabase = await target.create();
    drops.push(bankDatabase.drop);
    sandbox = await startSandbox({ databaseUrl: bankDatabase.url, seed: "demo", demoKey: bankKey, log });
    // A sandbox bank as run with SANDBOX_CONTROL=off: every /sandbox/... path is its 404.
    const quietDatabase = await target.create();
    drops.push(quietDatabase.drop);
    quiet = await startSandbox({ databaseUrl: quietDatabase.url, seed: "empty", demoKey: bankKey, log, settings: { control: "off" } });
  }, 120_000);
  afterAll(async () => {
    await backfill;
    await sandbox?.close();
    await quiet?.close();
    for (const drop of drops) await drop();
  }, 120_000);
  beforeEach(() => {
    resetRateLimits();
    session.user = staff("admin");
    session.environment = "sandbox";
    session.target = { baseUrl: sandbox.url, auth: { type: "basic", keyId: bankKey.id, secret: bankKey.secret } };
  });

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

  describe("who may call what", () => {
    it.each(routes)("$method $path: 401 signed out, nothing sent", async (route) => {
      session.user = null;
      const answer = await call(route.method, route.path, route.body);
      expect(answer.status).toBe(401);
      expect(answer.json.error?.code).toBe("unauthorized");
    });

    it.each([...byPermission("sandbox:control"), ...byPermission("sandbox:reset")])("$method $path: 403 for viewer", async (route) => {
      session.user = staff("viewer");
      expect((await call(route.method, route.path, route.body)).status).toBe(403);
    });

    it.each(byPermission("sandbox:reset"))(
      "$method $path: 403 for operations (admin only: the snapshot holds every object unmasked)",
      async (route) => {
        session.user = staff("operations");
        expect(await call(route.method, route.path, route.body)).toMatchObject({ status: 403, json: { error: { code: "forbidden" } } });
      },
    );

    it.each(byPermission("bank:read"))("$method $path: a read every role may make, a viewer included", async (route) => {
      session.user = staff("viewer");
      expect([200, 404]).toContain((await call(route.method, route.path, route.body)).status);
    });

    it.each(routes)("$method $path: 404 in the production environment, nothing sent or audited", async (route) => {
      session.environment = "production";
      const answer = await call(route.method, route.path, route.body);
      expect(answer).toMatchObject({
        status: 404,
        json: { error: { code: "not_found", message: "The sandbox controls exist only in the sandbox environment" } },
      });
      expect(await recordsOf(answer)).toEqual([]);
    });

    it.each([
      ["GET", "/reset"],
      ["POST", "/clock"],
      ["GET", "/card/card_1/transitions"],
      ["POST", "/counterparty/cp_1/transition"],
      ["POST", "/ach"],
      ["GET", "/ach/ach_1/transitions/more"],
      ["GET", "/nothing"],
      ["PATCH", "/faults/flt_1"],
    ])("%s %s: 404, no such route", async (method, path) => {
      expect(await call(method, path, method === "GET" ? undefined : {})).toMatchObject({ status: 404, json: { error: { code: "not_found" } } });
    });

    it("refuses a change from another site's page (403) before anything is sent", async () => {
      const answer = await call("POST", "/reset", { seed: "empty" }, { origin: "https://evil.example" });
      expect(answer.status).toBe(403);
      expect(await recordsOf(answer)).toEqual([]);
    });
  });

  describe("input", () => {
    it.each([
      ["POST", "/clock/advance", { by: "1 day" }, "by"],
      ["POST", "/clock/advance", {}, "by"],
      ["POST", "/clock/advance", { by: "PT1H", colour: "red" }, "colour"],
      ["POST", "/faults", {}, "match or webhooks is required"],
      ["POST", "/faults", { match: "GET /ach", status: 404 }, "status"],
      ["POST", "/faults", { match: "GET /sandbox/clock", status: 503 }, "never faulted"],
      ["POST", "/faults", { webhooks: "delay" }, "delay_ms"],
      ["POST", "/reset", { seed: "big" }, "seed"],
      ["POST", "/reset", { seed: 1.5 }, "seed"],
      ["PUT", "/snapshot", { format: "zip", version: 1, tables: {} }, "format"],
      ["PUT", "/snapshot", [], "body"],
      ["POST", "/ach/ach_1/transition", { to: "lost" }, "to must be one of"],
      ["POST", "/ach/ach_1/transition", { to: "sent", colour: "red" }, "colour"],
      ["POST", "/fednow/fednow_1/transition", {}, "to is required"],
      ["POST", "/webhook/webhook_1/transition", { to: "enabled" }, "to must be one of error, disabled"],
      ["POST", `/ach/${"a".repeat(101)}/transition`, { to: "sent" }, "id"],
      ["GET", `/ach/${"a".repeat(101)}/transitions`, undefined, "id"],
    ])("%s %s %j: 400 naming %s, nothing sent", async (method, path, body, named) => {
      const answer = await call(method, path, body);
      expect(answer.status).toBe(400);
      expect(String(answer.json.error?.message)).toContain(named);
      expect(await recordsOf(answer)).toEqual([]);
    });

    it("refuses malformed JSON with a 400", async () => {
      expect((await call("POST", "/reset", "{seed:")).json.error?.code).toBe("invalid_json");
    });

    it("passes the bank's own 400 through with its message (what only the bank knows)", async () => {
      const id = await newAch();
      const unknownCode = await call("POST", `/ach/${id}/transition`, { to: "returned", error: "R99" });
      expect(unknownCode).toMatchObject({ status: 400, json: { error: { code: "invalid_input" } } });
      expect(String(unknownCode.json.error?.message)).toMatch(/^error must be an ACH return code: one of R01/);
      const zero = await call("POST", "/clock/advance", { by: "PT0S" });
      expect(zero).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("by: must be a positive duration") } } });
    });

    it("refuses a snapshot larger than its cap with a 413 naming the cap, unread", async () => {
      const answer = await call("PUT", "/snapshot", "{}", { "content-length": String(snapshotMaxBytes + 1) });
      expect(answer).toMatchObject({
        status: 413,
        json: { error: { code: "payload_too_large", message: "The request body is larger than 64 MB." } },
      });
    });

    it("keeps the 64 KB cap on every other route", async () => {
      const answer = await call("POST", "/faults", { match: "GET /ach", status: 503, seed: "x".repeat(70 * 1024) });
      expect(answer).toMatchObject({ status: 413, json: { error: { message: "The request body is larger than 64 KB." } } });
    });
  });

  describe("transitions", () => {
    it("moves an ACH transfer to returned R01 for operations, masked as a GET through the proxy masks it, audited with before and after", async () => {
      session.user = staff("operations");
      const id = await newAch();
      const answer = await call("POST", `/ach/${id}/transition`, { to: "returned", error: "R01" });
      expect(answer.status).toBe(200);
      const atBank = (await bank("GET", `/ach/${id}`)).body;
      expect(atBank).toMatchObject({ status: "returned", error: "R01 Insufficient Funds" });
      expect(answer.json).toEqual(maskForViewer("ach", { ...atBank }));
      expect(await recordsOf(answer)).toEqual([
        expect.objectContaining({
          action: "ach.transition",
          targetId: id,
          environment: "sandbox",
          actorEmail: "operations@demo.bank",
          outcome: "succeeded",
          before: expect.objectContaining({ id, status: "pending" }),
          after: atBank,
        }),
      ]);
    });

    it("answers an invalid transition with a 409 invalid_transition carrying the valid ones, recorded as failed", async () => {
      const id = await newAch();
      expect((await call("POST", `/ach/${id}/transition`, { to: "processing" })).status).toBe(200);
      const refused = await call("POST", `/ach/${id}/transition`, { to: "canceled" });
      expect(refused).toMatchObject({
        status: 409,
        json: {
          error: { code: "invalid_transition", message: expect.stringContaining("cannot move to canceled"), valid: ["sent", "returned", "error"] },
        },
      });
      expect(await recordsOf(refused)).toEqual([expect.objectContaining({ action: "ach.transition", outcome: "failed" })]);
      expect((await bank("GET", `/ach/${id}`)).body.status).toBe("processing");
    });

    it("lists an instant payment's valid transitions for a viewer, and its 409 carries both lists", async () => {
      session.user = staff("viewer");
      const created = await bank("POST", "/sandbox/fednow", { payment_type: "debit" });
      const id = created.body.id as string;
      const listed = await call("GET", `/fednow/${id}/transitions`);
      expect(listed).toMatchObject({
        status: 200,
        json: { status: "pending", valid: ["processing", "sent", "error"], valid_external_status: expect.arrayContaining(["rejected"]) },
      });
      session.user = staff("operations");
      const refused = await call("POST", `/fednow/${id}/transition`, { to: "done" });
      expect(refused.json.error).toMatchObject({
        code: "invalid_transition",
        valid: ["processing", "sent", "error"],
        valid_external_status: expect.any(Array),
      });
    });

    it("answers 404 with the bank's message for an object that does not exist", async () => {
      expect(await call("GET", "/ach/ach_missing/transitions")).toMatchObject({
        status: 404,
        json: { error: { message: "No ach with id ach_missing" } },
      });
      expect((await call("POST", "/network_transfer/nt_missing/transition", { to: "sent" })).status).toBe(404);
    });

    it("refuses to move one of the console's own subscriptions, which feed its index (403), and moves any other webhook", async () => {
      const own = await bank("POST", "/webhook", {
        url: "http://127.0.0.1:9/api/bank-events/sandbox",
        event: "card.update",
        basic_user: "console-sandbox",
        basic_secret: "receiver-secret-0123456789",
      });
      expect(own.status).toBe(201);
      expect(await call("POST", `/webhook/${own.body.id}/transition`, { to: "disabled" })).toMatchObject({
        status: 403,
        json: { error: { code: "console_webhook" } },
      });
      const theirs = await bank("POST", "/webhook", { url: "http://127.0.0.1:9/theirs", event: "card.update" });
      const moved = await call("POST", `/webhook/${theirs.body.id}/transition`, { to: "error" });
      expect(moved).toMatchObject({ status: 200, json: { status: "error" } });
      await bank("DELETE", `/webhook/${own.body.id}`);
      await bank("DELETE", `/webhook/${theirs.body.id}`);
    });
  });

  describe("clock and faults", () => {
    it("reads the clock, advances it for operations (audited), and refuses more than P366D with the bank's message", async () => {
      const { now } = (await call("GET", "/clock")).json as { now: string };
      session.user = staff("operations");
      const advanced = await call("POST", "/clock/advance", { by: "PT1H" });
      expect(advanced.status).toBe(200);
      expect(Date.parse(advanced.json.now as string) - Date.parse(now)).toBeGreaterThanOrEqual(3_600_000);
      expect(await recordsOf(advanced)).toEqual([
        expect.objectContaining({
          action: "sandbox.clock.advance",
          outcome: "succeeded",
          before: { now: expect.any(String) },
          after: { now: advanced.json.now, by: "PT1H" },
        }),
      ]);
      expect((await call("POST", "/clock/advance", { by: "P400D" })).json.error?.message).toContain("at most P366D");
    });

    it("adds, lists, removes one and clears faults, each change audited", async () => {
      session.user = staff("operations");
      const added = await call("POST", "/faults", { match: "GET /card", status: 503, retry_after: 2, times: 5 });
      expect(added).toMatchObject({ status: 201, json: { id: expect.stringMatching(/^flt_/), match: "GET /card", status: 503 } });
      const id = added.json.id as string;
      expect((await recordsOf(added))[0]).toMatchObject({ action: "sandbox.fault.add", outcome: "succeeded", after: added.json });
      expect((await call("GET", "/faults")).json.data).toEqual([added.json]);
      const removed = await call("DELETE", `/faults/${id}`);
      expect(removed.status).toBe(204);
      expect((await recordsOf(removed))[0]).toMatchObject({ action: "sandbox.fault.remove", targetId: id, outcome: "succeeded" });
      expect(await call("DELETE", `/faults/${id}`)).toMatchObject({ status: 404 });
      await call("POST", "/faults", { webhooks: "drop" });
      const cleared = await call("DELETE", "/faults");
      expect(cleared.status).toBe(204);
      expect((await recordsOf(cleared))[0]).toMatchObject({
        action: "sandbox.fault.clear",
        before: { data: [expect.objectContaining({ webhooks: "drop" })] },
      });
      expect((await call("GET", "/faults")).json).toEqual({ data: [] });
    });
  });

  describe("the bank's side", () => {
    it("says so when the sandbox bank has no control API (SANDBOX_CONTROL=off)", async () => {
      session.target = { baseUrl: quiet.url, auth: { type: "basic", keyId: bankKey.id, secret: bankKey.secret } };
      for (const [method, path, body] of [
        ["GET", "/clock"],
        ["POST", "/reset", { seed: "empty" }],
        ["GET", "/ach/ach_1/transitions"],
      ] as const) {
        expect(await call(method, path, body)).toMatchObject({
          status: 404,
          json: { error: { code: "not_found", message: "This sandbox bank has no control API (SANDBOX_CONTROL=off)" } },
        });
      }
    });

    it("answers the console's usual 502 when the bank cannot be reached, and 503 when the sandbox has no connection", async () => {
      session.target = { baseUrl: "http://127.0.0.1:9", auth: { type: "basic", keyId: bankKey.id, secret: bankKey.secret } };
      expect(await call("GET", "/clock")).toMatchObject({ status: 502, json: { error: { code: "bank_unreachable" } } });
      expect(await call("POST", "/faults", { webhooks: "drop" })).toMatchObject({ status: 502 });
      session.target = undefined;
      expect(await call("GET", "/faults")).toMatchObject({ status: 503, json: { error: { code: "bank_not_configured" } } });
    });
  });

  describe("random and malformed requests", () => {
    const paths = [
      "/clock",
      "/clock/advance",
      "/faults",
      "/faults/{id}",
      "/reset",
      "/snapshot",
      ...movable.flatMap((resource) => [`/${resource}/{id}/transitions`, `/${resource}/{id}/transition`]),
      "/{id}",
      "/{id}/{id}/{id}/{id}",
    ];
    const fields = fc.record(
      {
        to: fc.oneof(fc.constantFrom("sent", "processing", "returned", "error", "done", "disabled"), fc.jsonValue()),
        error: fc.oneof(fc.constantFrom("R01", "R99", ""), fc.jsonValue()),
        external_status: fc.jsonValue(),
        by: fc.oneof(fc.constantFrom("PT1S", "P367D", "PT0S", "P1M"), fc.jsonValue()),
        seed: fc.oneof(fc.constantFrom(-1, 1.5, 1_000_001, "demo2"), fc.jsonValue()),
        match: fc.oneof(fc.constantFrom("GET /nothing", "* /x", "GET /sandbox/x"), fc.jsonValue()),
        status: fc.oneof(fc.constantFrom(429, 200, 503), fc.jsonValue()),
        format: fc.jsonValue(),
        tables: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const requests = fc.record({
      method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
      path: fc.constantFrom(...paths),
      id: fuzzComponent,
      body: fc.oneof(
        fields.map((body) => JSON.stringify(body)),
        fc.json({ maxDepth: 3 }),
        fc.constantFrom("{not json", "", "[]", '{"__proto__":{"a":1}}'),
      ),
    });
    const isErrorShape = (body: unknown) => {
      const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      return typeof error?.code === "string" && typeof error.message === "string";
    };

    it.each(fuzzSeeds)(
      "never a 5xx and every refusal in the console's error shape ($name)",
      async ({ seed }) => {
        session.user = staff("operations");
        await fc.assert(
          fc.asyncProperty(requests, async ({ method, path, id, body }) => {
            const answer = await call(method, path.replaceAll("{id}", id), method === "GET" ? undefined : body);
            expectDocumentedAnswer(answer, isErrorShape);
          }),
          fuzzParameters(seed, 150, 20),
        );
        // A fault the cases happened to add must not reach the tests after this one.
        await bank("DELETE", "/sandbox/faults");
      },
      60_000,
    );
  });

  describe("snapshot, reset, restore", () => {
    const indexedIds = async () =>
      (await database.db.select({ id: schema.bankObjects.id }).from(schema.bankObjects).where(eq(schema.bankObjects.environment, "sandbox"))).map(
        (row) => row.id,
      );

    it("downloads the snapshot (audited first, sizes only), resets, restores it, and gives the same lists; the index follows", async () => {
      const listBefore = (await bank("GET", "/ach?page_size=1000")).body.data;
      const webhooksBefore = (await bank("GET", "/webhook?page_size=1000")).body.data;
      const { now } = (await call("GET", "/clock")).json as { now: string };

      const download = await call("GET", "/snapshot");
      expect(download.status).toBe(200);
      expect(download.headers.get("content-disposition")).toBe(`attachment; filename="sandbox-snapshot-${now.replace(/:/g, "-")}.json"`);
      expect(download.headers.get("cache-control")).toContain("no-store");
      const file = JSON.parse(download.text) as { tables: Record<string, unknown[]> };
      expect(file.tables.ach).toHaveLength(listBefore.length);
      const [downloaded] = await recordsOf(download);
      expect(downloaded).toMatchObject({
        action: "sandbox.snapshot.download",
        outcome: "succeeded",
        after: { bytes: Buffer.byteLength(download.text), clock: now, rows: expect.objectContaining({ ach: listBefore.length }) },
      });
      expect(JSON.stringify(downloaded)).not.toContain(String(listBefore[0]!.id));

      // An object the index holds that no reset keeps.
      await recordObservations(database.db, "sandbox", [{ resource: "ach", id: "ach_gone_after_reset", state: { id: "ach_gone_after_reset" } }], {
        source: "backfill",
      });
      const started = performance.now();
      const reset = await call("POST", "/reset", { seed: "empty" });
      const answeredMs = performance.now() - started;
      expect(reset).toMatchObject({ status: 200, json: { seed: "empty", index: "rebuilding" } });
      expect((await recordsOf(reset))[0]).toMatchObject({
        action: "sandbox.reset",
        before: { seed: "empty" },
        after: reset.json,
        outcome: "succeeded",
      });
      expect((await bank("GET", "/ach?page_size=10")).body.data).toEqual([]);
      await backfill;
      expect(await indexedIds()).not.toContain("ach_gone_after_reset");
      // The console's subscriptions were gone with every webhook: set up again.
      const ownWebhooks = (await bank("GET", "/webhook?page_size=1000")).body.data.filter(
        (hook) => (hook.userdata as { console_index?: string } | null)?.console_index === "sandbox",
      );
      expect(ownWebhooks.length).toBeGreaterThan(0);

      const restoreStarted = performance.now();
      const restore = await call("PUT", "/snapshot", download.text);
      expect(restore).toMatchObject({ status: 200, json: { restored: expect.objectContaining({ ach: listBefore.length }), index: "rebuilding" } });
      await backfill;
      const rebuiltMs = performance.now() - restoreStarted;
      expect((await bank("GET", "/ach?page_size=1000")).body.data).toEqual(listBefore);
      expect(
        (await bank("GET", "/webhook?page_size=1000")).body.data.filter((hook) => webhooksBefore.some((kept) => kept.id === hook.id)),
      ).toHaveLength(webhooksBefore.length);
      const [restored] = await recordsOf(restore);
      expect(restored).toMatchObject({
        action: "sandbox.snapshot.restore",
        outcome: "succeeded",
        before: { bytes: expect.any(Number), rows: expect.any(Object) },
      });
      expect(JSON.stringify(restored).length).toBeLessThan(5_000);
      // The index holds what the bank holds again: every ACH transfer of the restored state.
      const indexed = new Set(await indexedIds());
      expect(listBefore.every((transfer) => indexed.has(transfer.id as string))).toBe(true);
      const objects = indexed.size;
      console.info(
        `[${target.name}] demo snapshot ${Buffer.byteLength(download.text)} bytes; reset answered in ${Math.round(answeredMs)} ms; ` +
          `restore + index rebuilt (${objects} objects) in ${Math.round(rebuiltMs)} ms`,
      );
    }, 120_000);
  });
});
