import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import { rowStates, type BulkActionName, type RowState } from "./codes";

const { bulkJobs, bulkRows } = schema;

export type BulkJobRow = typeof bulkJobs.$inferSelect;
export type BulkRowRow = typeof bulkRows.$inferSelect;

export interface NewBulkJob {
  id: string;
  environment: Environment;
  action: BulkActionName;
  resource: string;
  params: Record<string, unknown>;
  state: "awaiting_approval" | "queued";
  maker: { id: string; email: string };
  runAsId: string | null;
  requestId: string;
  /**
   * Each selected object with what it was when asked (`seen`, for a held job; null: the runner reads it before its
   * send), or the reason it is refused before anything is sent.
   */
  rows: Array<{ objectId: string; seen: unknown; refused?: string }>;
}

/** The job and its rows in one transaction: a job is never seen without all of its rows. */
export async function createBulkJob(db: ConsoleDb, job: NewBulkJob): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(bulkJobs).values({
      id: job.id,
      environment: job.environment,
      action: job.action,
      resource: job.resource,
      params: job.params,
      state: job.state,
      makerId: job.maker.id,
      makerEmail: job.maker.email,
      runAsId: job.runAsId,
      requestId: job.requestId,
    });
    // Rows refused up front are settled at once; they are never claimed.
    await tx.insert(bulkRows).values(
      job.rows.map((row, position) => ({
        jobId: job.id,
        position,
        objectId: row.objectId,
        seen: row.seen ?? null,
        state: row.refused ? ("refused" as const) : ("pending" as const),
        reason: row.refused ?? null,
        settledAt: row.refused ? new Date() : null,
      })),
    );
  });
}

export async function setApprovalOf(db: ConsoleDb, jobId: string, approvalId: number): Promise<void> {
  await db.update(bulkJobs).set({ approvalId }).where(eq(bulkJobs.id, jobId));
}

/** An approved job becomes runnable, sent as the approver: once (a second call finds it no longer awaiting). */
export async function queueApprovedJob(db: ConsoleDb, jobId: string, approverId: string): Promise<boolean> {
  const updated = await db
    .update(bulkJobs)
    .set({ state: "queued", runAsId: approverId })
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.state, "awaiting_approval")))
    .returning({ id: bulkJobs.id });
  return updated.length === 1;
}

export async function readJob(db: ConsoleDb, jobId: string): Promise<BulkJobRow | null> {
  const [row] = await db.select().from(bulkJobs).where(eq(bulkJobs.id, jobId));
  return row ?? null;
}

export async function readRows(db: ConsoleDb, jobId: string): Promise<BulkRowRow[]> {
  return db.select().from(bulkRows).where(eq(bulkRows.jobId, jobId)).orderBy(bulkRows.position);
}

export async function countRows(db: ConsoleDb, jobId: string): Promise<Record<RowState, number>> {
  const found = await db
    .select({ state: bulkRows.state, count: sql<number>`count(*)::int` })
    .from(bulkRows)
    .where(eq(bulkRows.jobId, jobId))
    .groupBy(bulkRows.state);
  const counts = Object.fromEntries(rowStates.map((state) => [state, 0])) as Record<RowState, number>;
  for (const row of found) counts[row.state] = Number(row.count);
  return counts;
}

/** A person's most recent jobs, newest first. */
export async function recentJobsOf(db: ConsoleDb, makerId: string, limit: number): Promise<BulkJobRow[]> {
  return db.select().from(bulkJobs).where(eq(bulkJobs.makerId, makerId)).orderBy(desc(bulkJobs.createdAt)).limit(limit);
}

/**
 * Takes the oldest queued job whose lease is free (never taken, or its holder stopped renewing it: a process that
 * died), for `leaseMs`. Of two processes asking at once, one gets it.
 */
export async function claimDueJob(db: ConsoleDb, owner: string, leaseMs: number): Promise<BulkJobRow | null> {
  const result = await db.execute<{ id: string }>(sql`
    UPDATE ${bulkJobs} SET lease_owner = ${owner}, lease_until = now() + ${leaseMs} * interval '1 millisecond'
    WHERE id = (
      SELECT id FROM ${bulkJobs}
      WHERE state = 'queued' AND (lease_until IS NULL OR lease_until < now())
      ORDER BY created_at, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`);
  const id = result.rows[0]?.id;
  return id ? readJob(db, String(id)) : null;
}

/** Keeps the lease while the job runs; false when another process has taken it (this one then stops sending). */
export async function renewLease(db: ConsoleDb, jobId: string, owner: string, leaseMs: number): Promise<boolean> {
  const updated = await db
    .update(bulkJobs)
    .set({ leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseOwner, owner), eq(bulkJobs.state, "queued")))
    .returning({ id: bulkJobs.id });
  return updated.length === 1;
}

export async function releaseLease(db: ConsoleDb, jobId: string, owner: string): Promise<void> {
  await db
    .update(bulkJobs)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.leaseOwner, owner)));
}

/** Every row settled: the job is done (and its lease dropped). */
export async function finishJob(db: ConsoleDb, jobId: string): Promise<void> {
  await db
    .update(bulkJobs)
    .set({ state: "done", finishedAt: new Date(), leaseOwner: null, leaseUntil: null })
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.state, "queued")));
}

/**
 * Claims one pending row before its send (`sending`): a row is claimed once, so it is sent at most once per claim.
 * `seen`, what the object is as read just before its send, is kept in the same write unless the row already has one
 * (what a held job's approver was shown, or the first read of a retried row).
 */
export async function claimRow(db: ConsoleDb, jobId: string, position: number, seen: unknown = null): Promise<boolean> {
  const updated = await db
    .update(bulkRows)
    .set({
      state: "sending",
      attempts: sql`${bulkRows.attempts} + 1`,
      ...(seen !== null && { seen: sql`coalesce(${bulkRows.seen}, ${JSON.stringify(seen)}::jsonb)` }),
    })
    .where(and(eq(bulkRows.jobId, jobId), eq(bulkRows.position, position), eq(bulkRows.state, "pending")))
    .returning({ position: bulkRows.position });
  return updated.length === 1;
}

/** A row's outcome, written once its send (or the decision not to send) is over. */
export async function settleRow(
  db: ConsoleDb,
  jobId: string,
  position: number,
  state: Exclude<RowState, "pending" | "sending">,
  reason: string | null,
) {
  await db
    .update(bulkRows)
    .set({ state, reason, settledAt: new Date() })
    .where(and(eq(bulkRows.jobId, jobId), eq(bulkRows.position, position), eq(bulkRows.state, "sending")));
}

/** A row found `sending` after a restart whose change the object shows was never applied: it may be sent. */
export async function reopenRow(db: ConsoleDb, jobId: string, position: number): Promise<void> {
  await db
    .update(bulkRows)
    .set({ state: "pending" })
    .where(and(eq(bulkRows.jobId, jobId), eq(bulkRows.position, position), eq(bulkRows.state, "sending")));
}

/** Rows to work on, in order: those left `sending` by a process that died first (they are settled before anything else). */
export async function openRows(db: ConsoleDb, jobId: string): Promise<BulkRowRow[]> {
  return db
    .select()
    .from(bulkRows)
    .where(and(eq(bulkRows.jobId, jobId), inArray(bulkRows.state, ["pending", "sending"])))
    .orderBy(bulkRows.position);
}

/** "Retry failed rows": the given states become pending again and a done job runs again; answers how many. */
export async function reopenFailedRows(db: ConsoleDb, jobId: string, states: readonly RowState[]): Promise<number> {
  return db.transaction(async (tx) => {
    const reopened = await tx
      .update(bulkRows)
      .set({ state: "pending", reason: null, settledAt: null })
      .where(and(eq(bulkRows.jobId, jobId), inArray(bulkRows.state, [...states])))
      .returning({ position: bulkRows.position });
    if (reopened.length > 0)
      await tx
        .update(bulkJobs)
        .set({ state: "queued", finishedAt: null })
        .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.state, "done")));
    return reopened.length;
  });
}

/** A held job whose request was rejected, withdrawn or expired: closed, nothing of it sent. */
export async function closeJob(db: ConsoleDb, jobId: string): Promise<void> {
  await db
    .update(bulkJobs)
    .set({ state: "closed", finishedAt: new Date() })
    .where(and(eq(bulkJobs.id, jobId), eq(bulkJobs.state, "awaiting_approval")));
}
