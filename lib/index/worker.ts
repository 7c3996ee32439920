import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type { Logger } from "pino";
import type { BankClient } from "@/lib/bank/client";
import type { Environment } from "@/lib/credentials/environments";
import type * as schema from "@/lib/db/console-schema";
import type { ResourceName } from "@/lib/contract/names";
import type { ListedResource } from "@/lib/contract/operations";
import { fetchObject, NotFoundAndNeverDeletedError } from "./fetch-object";
import { claimDueNotifications, markAllProcessed, markDeadLettered, markForRetry, releaseLeases, type InboxRow } from "./inbox";
import { idMismatch } from "./notification";
import { recordObservations, type ObservedState } from "./store";
import { traceIndexBatch } from "@/lib/telemetry/spans";
import { createWakeLoop } from "@/lib/wake-loop";

export interface IndexWorkerOptions {
  db: NodePgDatabase<typeof schema>;
  /** The bank client of an environment with the console's credentials; null when that environment is not configured. */
  clientFor(environment: Environment): Promise<BankClient | null>;
  log: Logger;
  /** A notification whose object could not be fetched this many times is given up (a dead letter). */
  maxAttempts: number;
  /** Rows taken per round; their objects are fetched concurrently, then recorded together. */
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
  /**
   * Finishes the round in progress, then stops. Given `graceMs`, waits for that round at most so long, then gives back
   * the leases of the rows it has not settled (releaseLeases), so another console process takes them at once rather
   * than after the lease runs out; returns how many it gave back.
   */
  stop(graceMs?: number): Promise<number>;
}

/**
 * Processes the inbox: for each due notification, fetches the object from the bank (the payload is never trusted for
 * state), records it in the index, and settles the row. A row whose object cannot be fetched waits with its reason and
 * is tried again with backoff (lib/index/inbox.ts), up to `maxAttempts`, then becomes a dead letter. A row whose id is
 * not of its event's kind is refused without a fetch. Rows are claimed with a lease, so a process killed mid-round
 * leaves them to be taken again: nothing acknowledged is lost.
 */
export function startIndexWorker(options: IndexWorkerOptions): IndexWorker {
  const { db, log } = options;
  const batchSize = options.batchSize ?? 32;
  const leaseMs = options.leaseMs ?? 60_000;
  /** Rows claimed by this worker and not yet settled: whose leases a stop gives back. */
  const held = new Set<number>();

  async function fetchFor(row: InboxRow): Promise<ObservedState> {
    const client = await options.clientFor(row.environment);
    if (!client) throw new Error(`the ${row.environment} environment has no bank credentials`);
    return { ...(await fetchObject(client, row.resource as ListedResource, row.objectId)), eventId: row.id };
  }

  async function giveUp(row: InboxRow, reason: string): Promise<void> {
    log.warn({ inboxId: row.id, event: row.event, objectId: row.objectId, attempts: row.attempts, reason }, "bank event given up (dead letter)");
    await markDeadLettered(db, row.id, reason).catch((error: unknown) => log.error({ err: error }, "could not settle a dead letter"));
  }

  /**
   * The object could not be fetched or recorded: tried again later, or given up once this was the last attempt. A 404
   * for an object the bank never deletes is logged as an error: it is a forged notification or a fault at the bank.
   */
  async function retryLater(row: InboxRow, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    if (row.attempts >= options.maxAttempts) return giveUp(row, `not processed after ${row.attempts} attempts: ${reason}`);
    const level = error instanceof NotFoundAndNeverDeletedError ? "error" : "warn";
    log[level]({ inboxId: row.id, event: row.event, objectId: row.objectId, attempts: row.attempts, reason }, "bank event not processed yet");
    await markForRetry(db, row, reason).catch((retryError: unknown) => log.error({ err: retryError }, "could not schedule a retry"));
  }

  /**
   * Why a claimed row is given up before any fetch: its id is not of its event's kind (stored before the receiver
   * checked it, or forged past it), or it was claimed again after its last attempt (its worker died meanwhile).
   */
  function refusal(row: InboxRow): string | undefined {
    const mismatch = idMismatch(row.resource as ResourceName, row.objectId);
    if (mismatch) return `refused (nothing fetched): ${mismatch}`;
    if (row.attempts > options.maxAttempts) return `not processed after ${options.maxAttempts} attempts`;
    return undefined;
  }

  /**
   * One round: every object fetched concurrently (the bank is the slow part), then what was fetched recorded in one
   * transaction per environment and the rows settled in one statement. Few, short transactions keep the pool free
   * for the receiver, which must answer the bank at once.
   */
  async function processRound(claimed: InboxRow[]): Promise<boolean> {
    const rows: InboxRow[] = [];
    for (const row of claimed) {
      const reason = refusal(row);
      if (reason) await giveUp(row, reason);
      else rows.push(row);
    }
    const fetched = await Promise.allSettled(rows.map(fetchFor));
    let changed = false;
    for (const environment of new Set(rows.map((row) => row.environment))) {
      const observed = rows.flatMap((row, index) => {
        const result = fetched[index]!;
        return row.environment === environment && result.status === "fulfilled" ? [{ row, state: result.value }] : [];
      });
      try {
        const outcomes = await recordObservations(
          db,
          environment,
          observed.map((entry) => entry.state),
          { source: "event" },
        );
        await markAllProcessed(
          db,
          observed.map((entry, index) => ({ id: entry.row.id, outcome: outcomes[index]! })),
        );
        changed ||= outcomes.some((outcome) => outcome === "changed" || outcome === "gone");
      } catch (error) {
        for (const entry of observed) await retryLater(entry.row, error);
      }
    }
    for (const [index, result] of fetched.entries()) if (result.status === "rejected") await retryLater(rows[index]!, result.reason);
    return changed;
  }

  /** One batch per round; a full batch means more may be waiting. */
  async function round(): Promise<boolean> {
    const rows = await claimDueNotifications(db, batchSize, leaseMs);
    if (rows.length === 0) return false;
    for (const row of rows) held.add(row.id);
    try {
      if (await traceIndexBatch(rows.length, () => processRound(rows))) options.onChanged?.();
    } finally {
      for (const row of rows) held.delete(row.id);
    }
    return rows.length === batchSize;
  }

  const loop = createWakeLoop(round, {
    pollMs: options.pollMs,
    onError: (error) => log.error({ err: error }, "index worker round failed"),
  });
  loop.wake();
  return {
    wake: loop.wake,
    async stop(graceMs = Infinity) {
      await loop.stop(graceMs);
      return releaseLeases(db, [...held]);
    },
  };
}
