import { and, desc, eq, ilike, isNull, ne, notLike, or, sql, type SQL } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import { searchActionPattern } from "./action-words";
import type { Role } from "@/lib/permissions";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";

const { auditRecords } = schema;

/**
 * The audit trail: one append-only record per mutation made through the console and per reveal of personal data.
 *
 * `audited(db, entry, perform)` writes the record as `pending` BEFORE running `perform`; if that write fails, perform
 * never runs (the caller gets the error). Afterwards the same record is finalized once as `succeeded` (with `after`)
 * or `failed` (with the error message). No transaction is held open around `perform` (it may be a slow bank call,
 * and on PGlite an open transaction blocks every other connection). If finalizing itself fails, the record stays
 * `pending`: it still shows who attempted what, and the database trigger forbids any other change to it. The trigger
 * also stamps `at` and `finished_at` itself and links each insert and finalization into a hash chain
 * (drizzle/console/0011_audit_tamper_evident.sql, lib/audit/chain.ts, docs/audit-trail.md).
 */
export interface AuditEntry {
  actor: { id: string; email: string; role: Role };
  environment: Environment | null;
  /** Dotted verb, e.g. `staff.create`, `webhook.delete`, `application.reveal`. */
  action: string;
  targetId: string | null;
  before?: unknown;
  requestId: string;
}

export interface AuditRecord {
  id: number;
  at: string;
  actorId: string;
  actorEmail: string;
  role: string;
  environment: string | null;
  action: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  outcome: "pending" | "succeeded" | "failed";
  error: string | null;
  requestId: string;
}

const json = (value: unknown) => (value === undefined ? null : value);

/** Inserts the record as `pending`; the database's trigger stamps `at` and links it into the hash chain. */
async function insertRecord(db: ConsoleDb, entry: AuditEntry): Promise<number> {
  const [row] = await db
    .insert(auditRecords)
    .values({
      actorId: entry.actor.id,
      actorEmail: entry.actor.email,
      role: entry.actor.role,
      environment: entry.environment,
      action: entry.action,
      targetId: entry.targetId,
      before: json(entry.before),
      outcome: "pending",
      requestId: entry.requestId,
    })
    .returning({ id: auditRecords.id });
  return row!.id;
}

async function finalize(db: ConsoleDb, id: number, outcome: { after: unknown } | { error: string }): Promise<void> {
  await db
    .update(auditRecords)
    .set(
      "error" in outcome
        ? { outcome: "failed", error: outcome.error, finishedAt: sql`date_trunc('second', now())` }
        : { outcome: "succeeded", after: json(outcome.after), finishedAt: sql`date_trunc('second', now())` },
    )
    .where(eq(auditRecords.id, id));
}

export async function audited<T>(
  db: ConsoleDb,
  entry: AuditEntry,
  perform: () => Promise<T>,
  options: { after?: (result: T) => unknown; onFinalizeError?: (error: unknown) => void } = {},
): Promise<T> {
  const id = await insertRecord(db, entry);
  let result: T;
  try {
    result = await perform();
  } catch (error) {
    await finalize(db, id, { error: error instanceof Error ? error.message : String(error) }).catch(options.onFinalizeError);
    throw error;
  }
  await finalize(db, id, { after: options.after ? options.after(result) : undefined }).catch(options.onFinalizeError);
  return result;
}

/**
 * A completed event with nothing to perform afterwards (e.g. a reveal of personal data): one `succeeded` record,
 * written as every record is (pending, then finalized: the trigger lets nothing be inserted already finalized).
 */
export async function recordAuditEvent(db: ConsoleDb, entry: AuditEntry & { after?: unknown }): Promise<void> {
  await finalize(db, await insertRecord(db, entry), { after: entry.after });
}

export interface AuditFilter {
  /** Part of the actor's email, case-insensitive. */
  actor?: string;
  action?: string;
  /**
   * The object the records are about: its id as the record's target, or, for a create (whose id the bank only gives
   * in its answer, after the record was written with no target), the id of the object recorded as `after`.
   */
  target?: string;
  /** Inclusive dates (YYYY-MM-DD, UTC). */
  from?: string;
  to?: string;
  /**
   * `hidden`: leaves out the records of searches over masked fields (the search box's and list reads filtered by a
   * masked field, lib/audit/action-words.ts), so the changes and reveals stand out.
   */
  searches?: "hidden";
  /** Records made in this environment (an object's timeline: the same id in the other environment is another object). */
  environment?: Environment;
}

function whereOf(filter: AuditFilter): SQL | undefined {
  const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return and(
    filter.actor ? ilike(auditRecords.actorEmail, `%${escapeLike(filter.actor)}%`) : undefined,
    filter.action ? eq(auditRecords.action, filter.action) : undefined,
    filter.target
      ? or(eq(auditRecords.targetId, filter.target), and(isNull(auditRecords.targetId), sql`${auditRecords.after}->>'id' = ${filter.target}`))
      : undefined,
    filter.from ? sql`${auditRecords.at} >= ${filter.from}::date` : undefined,
    filter.to ? sql`${auditRecords.at} < ${filter.to}::date + 1` : undefined,
    filter.environment ? eq(auditRecords.environment, filter.environment) : undefined,
    filter.searches === "hidden"
      ? and(ne(auditRecords.action, searchActionPattern.exact), notLike(auditRecords.action, `%${escapeLike(searchActionPattern.suffix)}`))
      : undefined,
  );
}

const recordColumns = {
  id: auditRecords.id,
  at: auditRecords.at,
  actorId: auditRecords.actorId,
  actorEmail: auditRecords.actorEmail,
  role: auditRecords.role,
  environment: auditRecords.environment,
  action: auditRecords.action,
  targetId: auditRecords.targetId,
  before: auditRecords.before,
  after: auditRecords.after,
  outcome: auditRecords.outcome,
  error: auditRecords.error,
  requestId: auditRecords.requestId,
};

const formatTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The query behind `listAuditRecords`, unsent (its tests read the plan PostgreSQL makes of it). */
export function auditRecordsQuery(db: ConsoleDb, filter: AuditFilter, page: { limit: number; after?: number }) {
  const cursor = page.after
    ? sql`(${auditRecords.at}, ${auditRecords.id}) < (SELECT at, id FROM ${auditRecords} WHERE id = ${page.after})`
    : undefined;
  return db
    .select(recordColumns)
    .from(auditRecords)
    .where(and(whereOf(filter), cursor))
    .orderBy(desc(auditRecords.at), desc(auditRecords.id))
    .limit(page.limit);
}

/** Newest first; `after` is the id of the last record of the previous page (keyset pagination on (at, id)). */
export async function listAuditRecords(db: ConsoleDb, filter: AuditFilter, page: { limit: number; after?: number }): Promise<AuditRecord[]> {
  const rows = await auditRecordsQuery(db, filter, page);
  return rows.map((row) => ({ ...row, at: formatTime(row.at) }));
}

/** Every record matching `filter`, newest first, read one keyset page of `pageSize` at a time (for exports). */
export async function* everyAuditRecord(db: ConsoleDb, filter: AuditFilter, pageSize = 500): AsyncGenerator<AuditRecord> {
  let after: number | undefined;
  for (;;) {
    const records = await listAuditRecords(db, filter, { limit: pageSize, after });
    yield* records;
    if (records.length < pageSize) return;
    after = records.at(-1)!.id;
  }
}

/** Every distinct action recorded so far, for the filter's choices. */
export async function listAuditActions(db: ConsoleDb): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditRecords.action }).from(auditRecords).orderBy(auditRecords.action);
  return rows.map((row) => row.action);
}
