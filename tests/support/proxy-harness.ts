import { afterAll, beforeAll, beforeEach } from "vitest";
import { audited, listAuditRecords, recordAuditEvent } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { createBankClient, type BankClient } from "@/lib/bank/client";
import type { Environment } from "@/lib/credentials/environments";
import { connectDatabase, type Database } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { createLogger } from "@/lib/log";
import type { Role } from "@/lib/permissions";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { auditRecordsOf, expectedAuditRecord } from "@/tests/support/audit-records";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets, type TestDatabaseTarget } from "@/tests/support/databases";
import { bankProxyResolver, type BankProxyDependencies } from "@/lib/api/bank-proxy";
import { createApiRoute } from "@/lib/api/route";
import { startRecordingBank, type RecordingBank } from "./recording-bank";

// The proxy route handler, called directly with real Requests, in front of the real sandbox bank (started once per
// test file, demo data in memory) through a recording hop, with a real audit trail on every database target. Only the
// session is given, since next-auth needs a running Next server (the e2e permission matrix covers that path).

const consoleOrigin = "http://console.test";
/** The demo key the sandbox bank is started with (tests that drive its control API use it too). */
export const bankKey = { id: "key_bank_proxy_test", secret: "bank-proxy-test-secret-0123456789" };

export const staff = (role: Role): StaffUser => ({ id: `stf_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false });

export interface ProxyBank {
  /** The recording hop in front of the sandbox bank: what the proxy sent, and faults to inject. */
  recording: RecordingBank;
  /** The sandbox bank read directly, not through the hop: the truth a test compares the proxy's answers with. */
  direct: BankClient;
  /** Ids from the demo seed, read once the sandbox bank is up. */
  seed: { networkTransfer: string; card: string; person_application: string; business_application: string };
}

/** Starts the sandbox bank (demo seed) behind a recording hop for this test file, and stops it afterwards. */
export function startProxyBank(): ProxyBank {
  const bank = { seed: {} } as ProxyBank;
  let sandbox: RunningSandbox | undefined;
  let dropSandboxDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    bank.recording = await startRecordingBank();
    // The bank's public URL is the recording hop, so the links it writes (page_next) and DPoP's htu name the hop.
    // On a fresh database of the first target: in memory (PGlite) unless a quick rerun narrowed the targets.
    const sandboxDatabase = await testDatabaseTargets[0]!.create();
    dropSandboxDatabase = sandboxDatabase.drop;
    sandbox = await startSandbox({
      databaseUrl: sandboxDatabase.url,
      seed: "demo",
      demoKey: bankKey,
      publicUrl: bank.recording.url,
      log: createLogger({ level: "error" }),
    });
    bank.recording.forwardTo(sandbox.listenUrl);
    const direct = createBankClient(
      { baseUrl: sandbox.listenUrl, auth: { type: "basic", keyId: bankKey.id, secret: bankKey.secret } },
      { retries: 0, timeoutMs: 30_000 },
    );
    bank.direct = direct;
    bank.seed.networkTransfer = (await direct.list_network_transfer({ page_size: 1 })).data[0]!.id;
    bank.seed.card = (await direct.list_card({ page_size: 1, status: "active" })).data[0]!.id;
    // Applications whose personal fields are all filled, so masking has something to hide in every field.
    bank.seed.person_application = (await direct.list_person_application({ page_size: 100 })).data.find(
      (application) => application.identification_number && application.email_address,
    )!.id;
    bank.seed.business_application = (await direct.list_business_application({ page_size: 100 })).data.find(
      (application) => application.identification_number && application.tin,
    )!.id;
  }, 120_000);

  afterAll(async () => {
    await sandbox?.close();
    await dropSandboxDatabase?.();
    await bank.recording?.close();
  });

  return bank;
}

/** What a test may change between requests: who is signed in, the active environment, where audit records go. */
export interface ProxySession {
  user: StaffUser | null;
  environment: Environment;
  auditDatabase: () => Database<typeof schema>["db"];
}

/**
 * The proxy over `bank` with its audit trail on a fresh console database of `target`. Before each test: an operations
 * user in the sandbox environment, a working audit trail, and an empty record of what the bank received.
 */
export function proxyHarness(bank: ProxyBank, target: TestDatabaseTarget) {
  const database = migratedConsoleDatabase(target);
  const session = {} as ProxySession;

  beforeEach(() => {
    bank.recording.received.length = 0;
    session.user = staff("operations");
    session.environment = "sandbox";
    session.auditDatabase = () => database.db;
  });

  const dependencies = (): BankProxyDependencies => ({
    activeEnvironment: async () => session.environment,
    bankClient: async () =>
      createBankClient(
        { baseUrl: bank.recording.url, auth: { type: "basic", keyId: bankKey.id, secret: bankKey.secret } },
        { retries: 0, timeoutMs: 30_000 },
      ),
    audited: (entry, perform, options) => audited(session.auditDatabase(), entry, perform, options),
    recordAuditEvent: (entry) => recordAuditEvent(session.auditDatabase(), entry),
  });
  const proxyWith = (overrides: Partial<BankProxyDependencies> = {}) =>
    createApiRoute({ currentUser: async () => session.user, log: createLogger({ level: "silent" }) })(
      bankProxyResolver({ ...dependencies(), ...overrides }),
    );
  const handler = proxyWith();

  /** Calls the proxy as a browser on the console's origin would (`origin: null` leaves the header out). */
  async function callProxy(
    method: string,
    bankPath: string,
    options: { body?: string | object; origin?: string | null; through?: typeof handler } = {},
  ) {
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

  return {
    session,
    callProxy,
    proxyWith,
    /** The proxy's real dependencies for this harness (the bank behind the hop, the session's audit trail). */
    dependencies,
    /** The console database of this harness (filled in its beforeAll). */
    database,
    allAuditRecords: () => listAuditRecords(database.db, {}, { limit: 10_000 }),
    /** The audit records written while answering `response` (matched by its request id). */
    recordsOf: (response: ProxyAnswer) => auditRecordsOf(database, response.requestId),
    /** "METHOD /path" of every request the bank received since the test began. */
    sentToBank: () => bank.recording.received.map((request) => `${request.method} ${new URL(request.url, bank.recording.url).pathname}`),
    /** From now on every audit write fails: the audit trail is a database whose connections are closed. */
    async breakAuditTrail() {
      const broken = connectDatabase(database.pool.options.connectionString!, schema);
      await broken.close();
      session.auditDatabase = () => broken.db;
    },
    expectedRecord: (response: ProxyAnswer, fields: Parameters<typeof expectedAuditRecord>[1]) =>
      expectedAuditRecord({ actor: session.user!, environment: session.environment, requestId: response.requestId! }, fields),
  };
}
