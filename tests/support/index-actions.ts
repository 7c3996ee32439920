import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { audited, type AuditRecord } from "@/lib/audit/trail";
import type { BankClient } from "@/lib/bank/client";
import { createStaff } from "@/lib/auth/staff-users";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import { createLogger } from "@/lib/log";
import { indexActions, type IndexActionState } from "@/lib/index/actions";
import { subscriptionsView } from "@/lib/index/actions-overview";
import { runBackfill } from "@/lib/index/backfill";
import { storeNotification } from "@/lib/index/inbox";
import { ensureReceiverCredentials, loadReceiverCredentials, rotateReceiverCredentials } from "@/lib/index/receiver-credentials";
import { ensureSubscriptions } from "@/lib/index/subscriptions";
import { auditRecordsOf, expectedAuditRecord, formOf, requireRole } from "./audit-records";
import { migratedConsoleDatabase, type ConsoleTestDatabase } from "./console-database";
import type { TestDatabaseTarget } from "./databases";
import { serveReceiver } from "./receiver-server";

export const idle: IndexActionState = { error: null, done: null };
export const indexActionsKey = { id: "key_index_actions", secret: "index-actions-secret-0123456789" };
export const silentLog = createLogger({ level: "silent" });

type OwnSubscription = Extract<Awaited<ReturnType<typeof subscriptionsView>>, { kind: "listed" }>["subscriptions"][number];

/** What a test of the index controls reads and sets; `actor`, `requestId` and `bankConfigured` are its to change. */
export interface IndexActionsUnderTest {
  readonly database: ConsoleTestDatabase;
  readonly environment: Environment;
  readonly encryptionKey: Buffer;
  readonly actions: ReturnType<typeof indexActions>;
  actor: StaffUser;
  requestId: string;
  bankConfigured: boolean;
  /** The backfills the actions started; a test awaits them before reading what they walked. */
  walks: Array<Promise<unknown>>;
  clientFor(): Promise<BankClient | null>;
  form(fields?: Record<string, string>): FormData;
  recordsOfThisRequest(): Promise<AuditRecord[]>;
  expectedRecord(fields: Parameters<typeof expectedAuditRecord>[1]): AuditRecord;
  ownSubscriptions(): Promise<OwnSubscription[]>;
}

/**
 * The admin's index controls (server actions) against `bank`, the sandbox bank started for real for the file, a real
 * console database on `target` and its audit trail; call it inside `describe.each(testDatabaseTargets)`. Given: the
 * session (`requireUser` refuses a role without the permission, as the real one does with a 403), and the runtime's
 * wiring rebuilt from the same lib/index functions with this database and bank. Before all, the sandbox's
 * subscriptions point at a receiver of this block's own with its own credentials (the database targets run one after
 * the other and share them); before each test, a new admin and request id, and the bank configured.
 */
export function indexActionsUnderTest(target: TestDatabaseTarget, bank: () => BankClient): IndexActionsUnderTest {
  const database = migratedConsoleDatabase(target);
  const encryptionKey = randomBytes(32);
  const environment: Environment = "sandbox";
  let receiver: Awaited<ReturnType<typeof serveReceiver>>;
  const newAdmin = () => createStaff(database.db, { email: `${randomUUID()}@bank.example`, name: "Admin", role: "admin", password: null });

  const clientFor = async () => (run.bankConfigured ? bank() : null);
  const run: IndexActionsUnderTest = {
    database,
    environment,
    encryptionKey,
    actor: undefined as unknown as StaffUser,
    requestId: "",
    bankConfigured: true,
    walks: [],
    clientFor,
    actions: indexActions({
      requireUser: requireRole(() => run.actor),
      db: async () => database.db,
      clientFor,
      setUpSubscriptions: async (environment, by) =>
        ensureSubscriptions(bank(), {
          environment,
          receiverUrl: receiver.url(environment),
          credentials: await ensureReceiverCredentials(database.db, environment, encryptionKey, by),
        }),
      rotateReceiver: async (environment, by) =>
        ensureSubscriptions(bank(), {
          environment,
          receiverUrl: receiver.url(environment),
          credentials: await rotateReceiverCredentials(database.db, environment, encryptionKey, by, 600_000),
        }),
      startBackfill: (environment) =>
        void run.walks.push(runBackfill({ db: database.db, client: bank(), environment, pageSize: 100, pagesPerSecond: 0, log: silentLog })),
      audited: (entry, perform, options) => audited(database.db, entry, perform, options),
      newRequestId: () => run.requestId,
      changed: () => undefined,
    }),
    form: (fields = {}) => formOf({ environment, ...fields }),
    recordsOfThisRequest: () => auditRecordsOf(database, run.requestId),
    expectedRecord: (fields) => expectedAuditRecord({ actor: run.actor, environment, requestId: run.requestId }, fields),
    ownSubscriptions: async () => {
      const view = await subscriptionsView(bank(), environment);
      if (view.kind !== "listed") throw new Error(`subscriptions not listed: ${view.kind}`);
      return view.subscriptions;
    },
  };

  beforeAll(async () => {
    receiver = await serveReceiver({
      credentialsOf: (environment) => loadReceiverCredentials(database.db, environment, encryptionKey),
      store: (environment, notification) => storeNotification(database.db, environment, notification),
    });
    run.actor = await newAdmin();
    run.requestId = `req_setup_${randomUUID()}`;
    expect(await run.actions.setUpSubscriptions(idle, run.form())).toMatchObject({ error: null });
    // Deliveries attempted while no receiver listened (between the two targets) may have put one in error.
    for (const state of await run.ownSubscriptions())
      if (state.status === "error") await bank().patch_webhook(state.webhookId!, { status: "enabled" });
  });
  afterAll(async () => {
    await Promise.all(run.walks);
    await receiver?.close();
  });
  beforeEach(async () => {
    await Promise.all(run.walks);
    run.actor = await newAdmin();
    run.requestId = `req_${randomUUID()}`;
    run.bankConfigured = true;
    run.walks = [];
  });
  return run;
}
