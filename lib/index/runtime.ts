import "server-only";
import { accessCache } from "@/lib/auth/console-access";
import { consoleBankClient } from "@/lib/bank/console-client";
import { encryptionKey, MissingEncryptionKeyError, type Environment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { onShutdown } from "@/lib/health/shutdown";
import { log } from "@/lib/log";
import { fillMissingSearchDocuments } from "@/lib/search/store";
import { runBackfill, sweepNewest } from "./backfill";
import { registerDirectReceiver } from "./direct-receiver";
import { createInboxWriter, type ReceivedNotification } from "./inbox";
import type { BankNotification } from "./notification";
import { receiveNotification } from "./receiver";
import { purgeExpired } from "./retention";
import { ensureReceiverCredentials, loadReceiverCredentials, rotateReceiverCredentials } from "./receiver-credentials";
import { ensureSubscriptions, type SubscriptionState } from "./subscriptions";
import { startIndexWorker, type IndexWorker } from "./worker";

const indexLog = log.child({ part: "bank-index" });

/** Where the bank reaches this console: CONSOLE_PUBLIC_URL, else its own host and port. */
export function consoleAddress(): string {
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
  return (env.CONSOLE_PUBLIC_URL ?? `http://${host}:${env.PORT}`).replace(/\/+$/, "");
}

/** Where the bank posts an environment's notifications: the receiver route of this console. */
export function receiverUrl(environment: Environment): string {
  return `${consoleAddress()}/api/bank-events/${environment}`;
}

/** The receiver's credentials as this process checks them, cached until a rotation raises the access version. */
export function currentReceiverCredentials(environment: Environment) {
  return accessCache.get(`receiver:${environment}`, async () => {
    if (!env.CREDENTIALS_ENCRYPTION_KEY) return null;
    return loadReceiverCredentials((await consoleDb()).db, environment, encryptionKey());
  });
}

interface BankIndexProcess {
  worker: IndexWorker | null;
  writeInbox?: (received: ReceivedNotification) => Promise<void>;
  backfills: Map<Environment, Promise<unknown>>;
}

/**
 * One per server process. Kept on globalThis because Next.js bundles instrumentation.ts and the route handlers
 * separately, each with its own copy of this module.
 */
const processState: BankIndexProcess = ((globalThis as { __bankIndex?: BankIndexProcess }).__bankIndex ??= { worker: null, backfills: new Map() });

/**
 * Stores a received notification (with those arriving at the same time, in one statement) and wakes this process's
 * worker at once. Other console processes sharing the database take a row only when this one has not yet: within
 * their next poll (1 s).
 */
export async function storeReceivedNotification(environment: Environment, notification: BankNotification): Promise<void> {
  processState.writeInbox ??= createInboxWriter((await consoleDb()).db, { maxPending: env.INDEX_INBOX_MAX_PENDING });
  await processState.writeInbox({ environment, notification });
  processState.worker?.wake();
}

/** `POST /api/bank-events/{environment}` as this process answers it, through Next.js or directly (./direct-receiver.ts). */
export function receiveBankEvent(request: Request, environment: string): Promise<Response> {
  return receiveNotification(request, environment, { credentialsOf: currentReceiverCredentials, store: storeReceivedNotification });
}

/** Walks every list of `environment` into the index in the background, unless a walk is already running here. */
export function startBackfill(environment: Environment): void {
  if (processState.backfills.has(environment)) return;
  const walk = (async () => {
    const client = await consoleBankClient(environment);
    if (!client) return;
    const { db } = await consoleDb();
    const result = await runBackfill({
      db,
      client,
      environment,
      log: indexLog,
      pageSize: env.INDEX_BACKFILL_PAGE_SIZE,
      pagesPerSecond: env.INDEX_BACKFILL_PAGES_PER_SECOND,
    });
    indexLog.info({ environment, result }, "index backfill finished");
  })()
    .catch((error: unknown) => indexLog.error({ err: error, environment }, "index backfill failed"))
    .finally(() => processState.backfills.delete(environment));
  processState.backfills.set(environment, walk);
}

/** Makes sure the receiver's credentials and the bank's webhooks for `environment` exist and are current. */
export async function setUpSubscriptions(environment: Environment, actor: string): Promise<SubscriptionState[]> {
  const client = await consoleBankClient(environment);
  if (!client) throw new Error(`The ${environment} environment has no bank credentials.`);
  const credentials = await ensureReceiverCredentials((await consoleDb()).db, environment, encryptionKey(), actor);
  return ensureSubscriptions(client, { environment, receiverUrl: receiverUrl(environment), credentials });
}

/** A new receiver secret, then every subscription re-registered with it. */
export async function rotateReceiver(environment: Environment, actor: string): Promise<SubscriptionState[]> {
  const client = await consoleBankClient(environment);
  if (!client) throw new Error(`The ${environment} environment has no bank credentials.`);
  const overlapMs = env.INDEX_RECEIVER_SECRET_OVERLAP_MINUTES * 60_000;
  const credentials = await rotateReceiverCredentials((await consoleDb()).db, environment, encryptionKey(), actor, overlapMs);
  return ensureSubscriptions(client, { environment, receiverUrl: receiverUrl(environment), credentials });
}

/** Environments whose index is set up (receiver credentials exist): those get the sweep. */
async function indexedEnvironments(): Promise<Environment[]> {
  const { db } = await consoleDb();
  const found: Environment[] = [];
  for (const environment of ["sandbox", "production"] as const) {
    if (await loadReceiverCredentials(db, environment, encryptionKey()).catch(() => null)) found.push(environment);
  }
  return found;
}

async function sweepAll(): Promise<void> {
  const { db } = await consoleDb();
  for (const environment of await indexedEnvironments()) {
    const client = await consoleBankClient(environment);
    if (client)
      await sweepNewest(db, client, environment, 100).catch((error: unknown) => indexLog.warn({ err: error, environment }, "index sweep failed"));
  }
  await purgeExpired(db, { versionDays: env.INDEX_RETENTION_DAYS, inboxDays: env.INDEX_INBOX_RETENTION_DAYS });
  processState.worker?.wake();
}

/**
 * Called once per server process (instrumentation.ts): starts the inbox worker and the periodic sweep; for the
 * sandbox, sets up the subscriptions and the backfill at once (production waits for an admin in Settings).
 */
export async function startBankIndex(): Promise<void> {
  if (env.INDEX === "off" || processState.worker) return;
  if (!env.CREDENTIALS_ENCRYPTION_KEY) {
    indexLog.warn(new MissingEncryptionKeyError().message + "; the index of the bank is off");
    return;
  }
  const { db } = await consoleDb();
  const worker = startIndexWorker({ db, clientFor: consoleBankClient, log: indexLog, maxAttempts: env.INDEX_INBOX_MAX_ATTEMPTS });
  processState.worker = worker;
  // Half the grace for the round in progress: its leases must be given back while the process still can.
  onShutdown("index worker", async (graceMs) => {
    const released = await worker.stop(graceMs / 2);
    indexLog.info({ released }, "index worker stopped; leases of unsettled notifications given back");
  });
  registerDirectReceiver(receiveBankEvent);
  // Objects indexed before the search existed get their search documents (docs/search.md).
  void fillMissingSearchDocuments(db)
    .then((written) => written > 0 && indexLog.info({ written }, "search documents written for objects indexed before"))
    .catch((error: unknown) => indexLog.error({ err: error }, "could not write the missing search documents"));
  setInterval(
    () => void sweepAll().catch((error: unknown) => indexLog.error({ err: error }, "index sweep failed")),
    env.INDEX_SWEEP_INTERVAL_MS,
  ).unref();
  void (async () => {
    const states = await setUpSubscriptions("sandbox", "system");
    indexLog.info({ created: states.filter((state) => state.action === "created").length }, "sandbox subscriptions ensured");
    startBackfill("sandbox");
  })().catch((error: unknown) => indexLog.error({ err: error }, "could not set up the sandbox index"));
}
