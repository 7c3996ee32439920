import { sql } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { BankNotification } from "./notification";
import type { ConsoleDb } from "@/lib/db/console-db";
import { groupedWriter } from "@/lib/db/grouped-writes";

const inbox = schema.bankEventInbox;

export type InboxRow = typeof inbox.$inferSelect;
/** What processing a fetched object found (a dead letter is settled apart, markDeadLettered). */
export type ProcessingOutcome = Exclude<NonNullable<InboxRow["outcome"]>, "dead_letter">;

/**
 * Stores a received notification: a new row, or one more delivery on the row for the same event and object that
 * has not been tried yet (the bank delivers at least once, so a repeat is expected and processed once).
 */
export async function storeNotification(
  db: ConsoleDb,
  environment: Environment,
  notification: BankNotification,
): Promise<{ id: number; deliveries: number }> {
  const [row] = await storeNotifications(db, [{ environment, notification }]);
  return row!;
}

export interface ReceivedNotification {
  environment: Environment;
  notification: BankNotification;
}

/**
 * Stores several notifications in one statement, as storeNotification stores one. Repeats within the batch become one
 * row counting their deliveries: one INSERT may not touch a row twice.
 */
export async function storeNotifications(db: ConsoleDb, received: ReceivedNotification[]): Promise<Array<{ id: number; deliveries: number }>> {
  const rows = new Map<string, typeof inbox.$inferInsert>();
  for (const { environment, notification } of received) {
    const key = JSON.stringify([environment, notification.event, notification.id]);
    const repeat = rows.get(key);
    if (repeat) repeat.deliveries! += 1;
    else
      rows.set(key, {
        environment,
        event: notification.event,
        op: notification.op,
        resource: notification.resource,
        objectId: notification.id,
        url: notification.url,
        deliveries: 1,
      });
  }
  if (rows.size === 0) return [];
  return db
    .insert(inbox)
    .values([...rows.values()])
    .onConflictDoUpdate({
      target: [inbox.environment, inbox.event, inbox.objectId],
      targetWhere: sql`${inbox.state} = 'pending' AND ${inbox.attempts} = 0`,
      set: { deliveries: sql`${inbox.deliveries} + excluded.deliveries`, lastReceivedAt: sql`now()` },
    })
    .returning({ id: inbox.id, deliveries: inbox.deliveries });
}

/** The inbox of an environment holds as many notifications waiting to be processed as it may: this one is not stored. */
export class InboxFullError extends Error {
  constructor(
    readonly environment: Environment,
    readonly maxPending: number,
  ) {
    super(`The ${environment} inbox already holds ${maxPending} notifications waiting to be processed.`);
  }
}

/** Notifications waiting (not yet processed, dead letters excluded) per environment among `environments`. */
async function pendingCounts(db: ConsoleDb, environments: Environment[]): Promise<Map<Environment, number>> {
  const result = await db.execute<{ environment: Environment; pending: number }>(sql`
    SELECT environment, count(*)::int AS pending FROM ${inbox}
    WHERE state <> 'processed' AND environment IN ${environments}
    GROUP BY environment`);
  return new Map(result.rows.map((row) => [row.environment, Number(row.pending)]));
}

/**
 * A store for the receiver that commits notifications arriving together in one statement (lib/db/grouped-writes.ts).
 * The bank sends in bursts (the sandbox: 16 at once), and one INSERT per request kept the pool and the database busy
 * for each. The receiver still answers only once its notification is stored.
 *
 * `maxPending` caps the notifications waiting per environment: each costs a fetch from the bank, so whoever holds the
 * receiver's secret could otherwise queue any number of them. Past it a notification is refused (InboxFullError) and
 * the bank sends it again later. The cap is counted once per batch, so concurrent batches (several console
 * processes) may pass it by at most one batch each.
 */
export function createInboxWriter(
  db: ConsoleDb,
  { maxPending = Infinity, maxBatch = 200 }: { maxPending?: number; maxBatch?: number } = {},
): (received: ReceivedNotification) => Promise<void> {
  type Entry = { received: ReceivedNotification; refused?: boolean };
  const write = groupedWriter(async (batch: Entry[]) => {
    if (Number.isFinite(maxPending)) {
      const pending = await pendingCounts(db, [...new Set(batch.map((entry) => entry.received.environment))]);
      for (const entry of batch) {
        const { environment } = entry.received;
        const count = pending.get(environment) ?? 0;
        entry.refused = count >= maxPending;
        if (!entry.refused) pending.set(environment, count + 1);
      }
    }
    await storeNotifications(
      db,
      batch.filter((entry) => !entry.refused).map((entry) => entry.received),
    );
  }, maxBatch);
  return async (received) => {
    // The batch writer says per entry whether it had room; the grouped writer only settles each entry's promise.
    const entry: Entry = { received };
    await write(entry);
    if (entry.refused) throw new InboxFullError(received.environment, maxPending);
  };
}

/**
 * Takes up to `limit` due rows for `leaseMs`: waiting ones whose time has come, and ones whose lease ran out (their
 * worker died). SKIP LOCKED lets several console processes share one inbox, each row going to one of them.
 */
export async function claimDueNotifications(db: ConsoleDb, limit: number, leaseMs: number): Promise<InboxRow[]> {
  const result = await db.execute<Record<string, unknown>>(sql`
    UPDATE ${inbox} SET state = 'processing', attempts = attempts + 1, lease_until = now() + ${leaseMs} * interval '1 millisecond'
    WHERE id IN (
      SELECT id FROM ${inbox}
      WHERE state <> 'processed' AND next_attempt_at <= now() AND (state = 'pending' OR lease_until < now())
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`);
  const ids = result.rows.map((row) => Number(row.id));
  if (ids.length === 0) return [];
  return db
    .select()
    .from(inbox)
    .where(sql`${inbox.id} IN ${ids}`)
    .orderBy(inbox.id);
}

export async function markProcessed(db: ConsoleDb, id: number, outcome: ProcessingOutcome): Promise<void> {
  await markAllProcessed(db, [{ id, outcome }]);
}

/** Settles a round's rows in one statement. */
export async function markAllProcessed(db: ConsoleDb, settled: Array<{ id: number; outcome: ProcessingOutcome }>): Promise<void> {
  if (settled.length === 0) return;
  const ids = `{${settled.map((row) => row.id).join(",")}}`;
  const outcomes = `{${settled.map((row) => row.outcome).join(",")}}`;
  await db.execute(sql`
    UPDATE ${inbox} SET state = 'processed', outcome = settled.outcome, error = NULL, lease_until = NULL, processed_at = now()
    FROM (SELECT unnest(${ids}::bigint[]) AS id, unnest(${outcomes}::text[]) AS outcome) AS settled
    WHERE ${inbox.id} = settled.id`);
}

/**
 * Gives a notification up: it is settled as a dead letter with the reason (`outcome = 'dead_letter'`), never tried
 * again, and listed on /events. Either it was refused (it names no object of its event's kind) or its object could
 * not be fetched within the attempt bound.
 */
export async function markDeadLettered(db: ConsoleDb, id: number, reason: string): Promise<void> {
  await db.execute(sql`
    UPDATE ${inbox} SET state = 'processed', outcome = 'dead_letter', error = ${reason.slice(0, 500)}, lease_until = NULL, processed_at = now()
    WHERE id = ${id}`);
}

/** Longest wait between two attempts to fetch an object the bank did not give. */
export const retryCapMs = 10 * 60_000;

/** The object could not be fetched: the row waits, with the reason, for its next attempt (1 s, 2 s, 4 s... 10 min). */
export async function markForRetry(db: ConsoleDb, row: Pick<InboxRow, "id" | "attempts">, error: string): Promise<void> {
  const delayMs = Math.min(retryCapMs, 1000 * 2 ** Math.max(0, row.attempts - 1)) * (0.5 + Math.random() / 2);
  await db.execute(sql`
    UPDATE ${inbox} SET state = 'pending', error = ${error.slice(0, 500)}, lease_until = NULL,
      next_attempt_at = now() + ${Math.round(delayMs)} * interval '1 millisecond'
    WHERE id = ${row.id}`);
}

/**
 * Gives back the leases of rows claimed and not settled (their console process is stopping): they are due at once, and
 * the attempt the claim counted is not counted against them, so another process takes them in its next round instead
 * of after the lease. Only rows still `processing` change: one settled meanwhile stays settled. Returns how many.
 */
export async function releaseLeases(db: ConsoleDb, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.execute(sql`
    UPDATE ${inbox} SET state = 'pending', lease_until = NULL, next_attempt_at = now(), attempts = greatest(attempts - 1, 0)
    WHERE id IN ${ids} AND state = 'processing'`);
  return result.rowCount ?? 0;
}
