import { trace } from "@opentelemetry/api";
import { eq } from "drizzle-orm";
import { SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBankCircuit } from "@/lib/bank/circuit";
import { createBankClient, type BankClient } from "@/lib/bank/client";
import { staffUsers } from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { startLocalServer, type LocalServer } from "@/tests/support/local-server";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { demoKey } from "@/tests/support/sandbox-client";
import { otlpTraceExporter } from "./exporter";
import { describeStatement } from "./database-spans";
import { traceIndexBatch } from "./spans";

/**
 * Traces leave the console over OTLP/HTTP to a real receiver (a small HTTP server standing in for the collector), with
 * the provider the console registers and the exporter it builds from the standard variables. A bank call is one span
 * naming its operation's path template and status; the ids and filter values it was sent with appear nowhere.
 */

interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: number | string; boolValue?: boolean } }>;
  status?: { code?: number };
}

let collector: LocalServer;
let provider: NodeTracerProvider;

beforeAll(async () => {
  collector = await startLocalServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
  const exporter = otlpTraceExporter({
    OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/otlp/`,
    OTEL_EXPORTER_OTLP_HEADERS: { "x-collector-key": "k-123" },
  });
  provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter!)] });
  provider.register();
});

afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  await collector.close();
});

/** Every span the collector has received so far, after the provider has sent what it holds. */
async function exported(): Promise<ExportedSpan[]> {
  await provider.forceFlush();
  return collector.received.flatMap((request) => {
    const body = JSON.parse(request.body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: ExportedSpan[] }> }> };
    return body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
  });
}

const attributesOf = (span: ExportedSpan) =>
  Object.fromEntries(
    span.attributes.map(({ key, value }) => [key, value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue))]),
  );

describe("the OTLP exporter's settings", () => {
  it("is off without an endpoint, and posts to <endpoint>/v1/traces unless a traces endpoint is given", async () => {
    expect(otlpTraceExporter({})).toBeNull();
    collector.received.length = 0;
    trace.getTracer("test").startSpan("settings check").end();
    await exported();
    expect(collector.received.map((request) => [request.method, request.url, request.headers["x-collector-key"]])).toEqual([
      ["POST", "/otlp/v1/traces", "k-123"],
    ]);
  });

  it("strips the query from a span's name and from every attribute holding a URL or a path before it leaves", async () => {
    collector.received.length = 0;
    trace
      .getTracer("test")
      .startSpan("GET /api/search?q=Jane%20Doe", {
        attributes: {
          "http.target": "/api/search?q=Jane%20Doe",
          "url.query": "q=Jane%20Doe",
          "http.method": "GET",
          "resource.name": "GET /api/search?q=Jane%20Doe&preview=1",
          "http.url": "http://bank.example/ach?counterparty_id=cp_1",
          note: "asked why?",
        },
      })
      .end();
    const [span] = await exported();
    expect(span!.name).toBe("GET /api/search");
    expect(attributesOf(span!)).toEqual({
      "http.target": "/api/search",
      "http.method": "GET",
      "resource.name": "GET /api/search",
      "http.url": "http://bank.example/ach",
      note: "asked why?",
    });
  });
});

describe("a database span's name", () => {
  it("is the statement's operation and first table, never a literal or a parameter", () => {
    expect(describeStatement('insert into "console"."audit_log" ("id") values ($1)')).toEqual({ operation: "INSERT", table: "console.audit_log" });
    expect(describeStatement("delete from staff_sessions where token_hash = 'abc'")).toEqual({ operation: "DELETE", table: "staff_sessions" });
    expect(describeStatement("select 'from secret' as x")).toEqual({ operation: "SELECT" });
    expect(describeStatement("LISTEN bank_changes")).toEqual({ operation: "LISTEN" });
  });
});

describe.each(testDatabaseTargets)("bank calls and database queries as spans (sandbox and console on $name)", (target) => {
  const bankSide = sandboxOnDatabase(target, { seed: "demo" });
  const database = migratedConsoleDatabase(target);
  let bank: BankClient;
  let circuit: ReturnType<typeof createBankCircuit>;

  // A breaker of its own per test: one test opens it.
  beforeEach(() => {
    circuit = createBankCircuit("sandbox", { failures: 2, halfOpenAfterMs: 60_000 });
    bank = createBankClient(
      { baseUrl: bankSide.sandbox.url, auth: { type: "basic", keyId: demoKey.id, secret: demoKey.secret } },
      { retries: 0, circuit },
    );
  });

  afterEach(async () => {
    await bankSide.request("/sandbox/faults", { method: "DELETE" });
    collector.received.length = 0;
  });

  it("sends a span per bank call with its method, path template, status and breaker state, and no id or filter value", async () => {
    const [transfer] = (await bank.resources.list("ach", { page_size: 1 })).data;
    const id = String(transfer!.id);
    const accountNumber = "987654321012345";
    collector.received.length = 0;

    await traceIndexBatch(2, async () => {
      await bank.resources.get("ach", id);
      await bank.call("list_fednow", { query: { external_account_number: accountNumber, page_size: 5 } });
    });

    const spans = await exported();
    const detail = spans.find((span) => span.name === "bank GET /ach/{id}");
    const list = spans.find((span) => span.name === "bank GET /fednow");
    const batch = spans.find((span) => span.name === "index worker batch");
    expect(attributesOf(detail!)).toEqual({
      "http.request.method": "GET",
      "url.template": "/ach/{id}",
      "bank.operation": "get_ach",
      "bank.environment": "sandbox",
      "bank.circuit.state": "closed",
      "http.response.status_code": 200,
      "bank.attempts": 1,
    });
    expect(attributesOf(list!)).toMatchObject({ "url.template": "/fednow", "http.response.status_code": 200 });
    // The batch is the parent of the fetches made within it: one trace from the worker's round to each bank call.
    expect([detail!.parentSpanId, list!.parentSpanId]).toEqual([batch!.spanId, batch!.spanId]);
    expect(attributesOf(batch!)).toEqual({ "index.batch.rows": 2 });
    const everything = collector.received.map((request) => request.body).join("\n");
    expect(everything).not.toContain(id);
    expect(everything).not.toContain(accountNumber);
  });

  it("puts a request's database queries in its trace beside its bank call, with operation and table and no value", async () => {
    const email = "jane.doe.traced@example.test";
    await database.db.insert(staffUsers).values({ id: "stf_traced", email, name: "Jane Traced", role: "viewer" });
    collector.received.length = 0;

    // Next.js's span for the incoming request, in the console; here a span of the test's own.
    await trace.getTracer("test").startActiveSpan("GET /api/bank/[...path]", async (request) => {
      await database.db.select().from(staffUsers).where(eq(staffUsers.email, email));
      await bank.resources.list("ach", { page_size: 1 });
      await database.db.transaction(async (transaction) => {
        await transaction.update(staffUsers).set({ name: "Jane T." }).where(eq(staffUsers.email, email));
      });
      request.end();
    });
    // Outside any trace, a query makes no span (the index's polling would otherwise fill the collector).
    await database.db.select().from(staffUsers).where(eq(staffUsers.email, email));

    const spans = await exported();
    const request = spans.find((span) => span.name === "GET /api/bank/[...path]")!;
    const bankCall = spans.find((span) => span.name === "bank GET /ach")!;
    const queries = spans.filter((span) => attributesOf(span)["db.system"] === "postgresql");
    expect(bankCall.traceId).toBe(request.traceId);
    expect(queries.map((span) => [span.name, span.traceId === request.traceId])).toEqual([
      ["SELECT console.staff_users", true],
      ["BEGIN", true],
      ["UPDATE console.staff_users", true],
      ["COMMIT", true],
    ]);
    expect(attributesOf(queries[0]!)).toEqual({
      "db.system": "postgresql",
      "db.operation.name": "SELECT",
      "db.collection.name": "console.staff_users",
    });
    const everything = collector.received.map((received) => received.body).join("\n");
    expect(everything).not.toContain(email);
    expect(everything).not.toContain("Jane");
  });

  it("marks a failed call with the bank's status, and a call the open breaker refused as circuit_open with no status", async () => {
    await bankSide.request("/sandbox/faults", { method: "POST", json: { match: "*", status: 503, times: 10 } });
    for (let read = 0; read < 2; read += 1) await bank.resources.list("ach", { page_size: 1 }).catch(() => undefined);
    await bank.resources.list("ach", { page_size: 1 }).catch(() => undefined);
    expect(circuit.snapshot().state).toBe("open");

    const spans = (await exported()).filter((span) => span.name === "bank GET /ach");
    expect(
      spans.map((span) => [
        attributesOf(span)["bank.circuit.state"],
        attributesOf(span)["http.response.status_code"],
        attributesOf(span)["error.type"],
      ]),
    ).toEqual([
      ["closed", 503, "server_error"],
      ["closed", 503, "server_error"],
      ["open", undefined, "circuit_open"],
    ]);
    expect(spans.every((span) => span.status?.code === 2)).toBe(true);
  });
});
