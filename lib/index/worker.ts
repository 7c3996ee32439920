import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type { Logger } from "pino";
import type { BankClient } from "@/lib/bank/client";
import type { Environment } from "@/lib/credentials/environments";
import type * as schema from "@/lib/db/console-schema";
import type { ListedResource } from "@/lib/contract/operations";
import { fetchObject } from "./fetch-object";
import { claimDueNotifications, markForRetry, markProcessed, type InboxRow } from "./inbox";
import { recordObservations } from "./store";

export interface IndexWorkerOptions {
  db: NodePgDatabase<typeof schema>;
  /** The bank client of an environment with the console's credentials; null when that environment is not configured. */
  clientFor(environment: Environment): Promise<BankClient | null>;
  log: Logger;
  /** Rows taken per round; each row's object is fetched concurrently with the others of its round. */
  batchSize?: number;
  /** A claimed row not settled within this is taken again (its worker died). */
  leaseMs?: number;
  /** Looks for due rows at least this often even when nothing wakes it (retries, other processes' rows). */
  pollMs?: number;
  /** Told after each round that changed the index. */
  onChanged?(): void;
}

export interface IndexWorker {
  /** Look for due rows now (the receiver calls it after storing a notification). */
  wake(): void;
  /** Finishes the round in progress, then stops. */
  stop(): Promise<void>;
}

/**
 * Processes the inbox: for each due notification, fetches the object from the bank (the payload is never trusted for
 * state), records it in the index, and settles the row. A row whose object cannot be fetched waits with its reason and
 * is tried again with backoff (lib/index/inbox.ts). Rows are claimed with a lease, so a process killed mid-round
 * leaves them to be taken again: nothing acknowledged is lost.
 */
export function startIndexWorker(options: IndexWorkerOptions): IndexWorker {
  const { db, log } = options;
  const batchSize = options.batchSize ?? 32;
  const leaseMs = options.leaseMs ?? 60_000;
  let stopped = false;
  let wakeAgain = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function processRow(row: InboxRow): Promise<boolean> {
    try {
      const client = await options.clientFor(row.environment);
      if (!client) throw new Error(`the ${row.environment} environment has no bank credentials`);
      const observed = await fetchObject(client, row.resource as ListedResource, row.objectId);
      const [outcome] = await recordObservations(db, row.environment, [observed], { source: "event", eventId: row.id });
      await markProcessed(db, row.id, outcome!);
      return outcome === "changed" || outcome === "gone";
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ inboxId: row.id, event: row.event, objectId: row.objectId, attempts: row.attempts, reason }, "bank event not processed yet");
      await markForRetry(db, row, reason).catch((retryError: unknown) => log.error({ err: retryError }, "could not schedule a retry"));
      return false;
    }
  }

  async function rounds(): Promise<void> {
    do {
      wakeAgain = false;
      const rows = await claimDueNotifications(db, batchSize, leaseMs);
      if (rows.length === 0) continue;
      const changed = await Promise.all(rows.map(processRow));
      if (changed.some(Boolean)) options.onChanged?.();
      if (rows.length === batchSize) wakeAgain = true;
    } while (wakeAgain && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      wakeAgain = true;
      return;
    }
    clearTimeout(timer);
    running = rounds()
      .catch((error: unknown) => log.error({ err: error }, "index worker round failed"))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(wake, wakeAgain ? 0 : (options.pollMs ?? 1000));
      });
  }

  wake();
  return {
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
