import { sql } from "drizzle-orm";
import { Gauge, type Registry } from "prom-client";
import { environments, type Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import type { Logger } from "@/lib/log";

/** Age buckets of waiting approvals and reviews, as label values; every one is reported, 0 when empty. */
export const ageBuckets = ["under_1h", "1h_to_4h", "4h_to_24h", "1d_to_3d", "over_3d"] as const;

/** The SQL that puts an age (an interval) in its bucket, in the order of `ageBuckets`. */
const bucketOf = (age: ReturnType<typeof sql>) => sql`CASE
  WHEN ${age} < interval '1 hour' THEN 'under_1h'
  WHEN ${age} < interval '4 hours' THEN '1h_to_4h'
  WHEN ${age} < interval '1 day' THEN '4h_to_24h'
  WHEN ${age} < interval '3 days' THEN '1d_to_3d'
  ELSE 'over_3d' END`;

/** What each group of stored gauges reads; a group that cannot be read is reported by `console_metrics_source_up`. */
export const sources = ["index", "approvals", "reviews"] as const;
type Source = (typeof sources)[number];

function createStoredGauges(registers: Registry[]) {
  return {
    sourceUp: new Gauge({
      name: "console_metrics_source_up",
      help: "1 when the scrape read this group of stored metrics from the console's database, 0 when it could not (see the log).",
      labelNames: ["source"] as const,
      registers,
    }),
    indexLag: new Gauge({
      name: "console_index_lag_seconds",
      help: "Seconds since the index's newest change of a bank object (absent while the index holds nothing).",
      labelNames: ["environment"] as const,
      registers,
    }),
    inboxDepth: new Gauge({
      name: "console_index_inbox_depth",
      help: "Bank notifications stored and not yet processed (dead letters excluded).",
      labelNames: ["environment"] as const,
      registers,
    }),
    inboxOldest: new Gauge({
      name: "console_index_inbox_oldest_seconds",
      help: "Age of the oldest notification not yet processed; 0 when none waits.",
      labelNames: ["environment"] as const,
      registers,
    }),
    approvalsPending: new Gauge({
      name: "console_approvals_pending",
      help: "Change requests waiting for a second person (not expired), by age.",
      labelNames: ["environment", "age"] as const,
      registers,
    }),
    approvalsOldest: new Gauge({
      name: "console_approvals_pending_oldest_seconds",
      help: "Age of the oldest change request waiting for approval; 0 when none waits.",
      labelNames: ["environment"] as const,
      registers,
    }),
    reviewsPending: new Gauge({
      name: "console_reviews_pending",
      help: "Applications in the review queue without a confirmed decision, by age (from the bank's created_at).",
      labelNames: ["environment", "age"] as const,
      registers,
    }),
    reviewsOldest: new Gauge({
      name: "console_reviews_pending_oldest_seconds",
      help: "Age of the oldest application in the review queue without a confirmed decision; 0 when none waits.",
      labelNames: ["environment"] as const,
      registers,
    }),
  };
}

export type StoredGauges = ReturnType<typeof createStoredGauges>;

/** The stored gauges of `registry`, made once per registry: on globalThis, as this module may be bundled more than once. */
const made = ((globalThis as { __consoleStoredGauges?: WeakMap<Registry, StoredGauges> }).__consoleStoredGauges ??= new WeakMap());
export function storedGauges(registry: Registry): StoredGauges {
  let gauges = made.get(registry);
  if (!gauges) made.set(registry, (gauges = createStoredGauges([registry])));
  return gauges;
}

type AgeRow = { environment: Environment; age: string; waiting: number; oldest: number };

/** Counts by environment and age bucket into `count`, the oldest per environment into `oldest`; zeros where none wait. */
function setAges(rows: AgeRow[], count: Gauge<"environment" | "age">, oldest: Gauge<"environment">): void {
  for (const environment of environments) {
    for (const age of ageBuckets) count.set({ environment, age }, 0);
    oldest.set({ environment }, 0);
  }
  const oldestSeen = new Map<Environment, number>();
  for (const row of rows) {
    count.set({ environment: row.environment, age: row.age }, Number(row.waiting));
    oldestSeen.set(row.environment, Math.max(oldestSeen.get(row.environment) ?? 0, Number(row.oldest)));
  }
  for (const [environment, seconds] of oldestSeen) oldest.set({ environment }, seconds);
}

/**
 * The reads, each a few rows from an index: the newest change per environment (bank_objects_last_changed_idx), the
 * unprocessed inbox (bounded by INDEX_INBOX_MAX_PENDING, bank_event_inbox_due_idx), pending change requests
 * (change_requests_list_idx) and undecided applications (bank_objects_resource_idx). Ages use the database's clock.
 */
const readers: Record<Source, (db: ConsoleDb, gauges: StoredGauges) => Promise<void>> = {
  async index(db, gauges) {
    const result = await db.execute<{ environment: Environment; lag: number | null; depth: number; oldest: number | null }>(sql`
      SELECT e.environment,
        (SELECT extract(epoch FROM now() - max(o.last_changed_at))::float8 FROM ${schema.bankObjects} o WHERE o.environment = e.environment) AS lag,
        (SELECT count(*)::int FROM ${schema.bankEventInbox} i WHERE i.environment = e.environment AND i.state <> 'processed') AS depth,
        (SELECT extract(epoch FROM now() - min(i.received_at))::float8 FROM ${schema.bankEventInbox} i
          WHERE i.environment = e.environment AND i.state <> 'processed') AS oldest
      FROM (VALUES ${sql.join(
        environments.map((environment) => sql`(${environment}::text)`),
        sql`, `,
      )}) AS e(environment)`);
    gauges.indexLag.reset();
    for (const row of result.rows) {
      if (row.lag !== null) gauges.indexLag.set({ environment: row.environment }, Math.max(0, Number(row.lag)));
      gauges.inboxDepth.set({ environment: row.environment }, Number(row.depth));
      gauges.inboxOldest.set({ environment: row.environment }, Math.max(0, Number(row.oldest ?? 0)));
    }
  },
  async approvals(db, gauges) {
    const age = sql`now() - ${schema.changeRequests.requestedAt}`;
    const result = await db.execute<AgeRow>(sql`
      SELECT environment, ${bucketOf(age)} AS age, count(*)::int AS waiting, max(extract(epoch FROM ${age}))::float8 AS oldest
      FROM ${schema.changeRequests}
      WHERE state = 'pending' AND expires_at > now()
      GROUP BY 1, 2`);
    setAges(result.rows, gauges.approvalsPending, gauges.approvalsOldest);
  },
  async reviews(db, gauges) {
    // The review queue's default view (lib/reviews/queue.ts): applications the index holds whose case is not decided.
    const age = sql`greatest(now() - coalesce(o.bank_created_at, now()), interval '0')`;
    const result = await db.execute<AgeRow>(sql`
      SELECT o.environment, ${bucketOf(age)} AS age, count(*)::int AS waiting, max(extract(epoch FROM ${age}))::float8 AS oldest
      FROM ${schema.bankObjects} o
      LEFT JOIN ${schema.reviewCases} c ON c.environment = o.environment AND c.application_id = o.id
      WHERE o.resource IN ('person_application', 'business_application') AND o.state IS NOT NULL AND coalesce(c.state, 'open') <> 'decided'
      GROUP BY 1, 2`);
    setAges(result.rows, gauges.reviewsPending, gauges.reviewsOldest);
  },
};

/** A scrape waits at most this long for the database; Prometheus's own scrape timeout is 10 s by default. */
export const storedReadTimeoutMs = 3_000;

/**
 * Reads every stored gauge for one scrape. A group that fails (the database down or slow) is logged, its gauges are
 * cleared rather than left at a stale value, and `console_metrics_source_up` says so; the scrape itself still answers.
 */
export async function readStoredGauges(
  openDb: () => Promise<ConsoleDb>,
  registry: Registry,
  log: Logger,
  timeoutMs = storedReadTimeoutMs,
): Promise<void> {
  const gauges = storedGauges(registry);
  const ofSource: Record<Source, Gauge[]> = {
    index: [gauges.indexLag, gauges.inboxDepth, gauges.inboxOldest],
    approvals: [gauges.approvalsPending, gauges.approvalsOldest],
    reviews: [gauges.reviewsPending, gauges.reviewsOldest],
  };
  await Promise.all(
    sources.map(async (source) => {
      try {
        await withTimeout(
          openDb().then((db) => readers[source](db, gauges)),
          timeoutMs,
        );
        gauges.sourceUp.set({ source }, 1);
      } catch (error) {
        for (const gauge of ofSource[source]) gauge.reset();
        gauges.sourceUp.set({ source }, 0);
        log.warn({ err: error, source }, "metrics: a stored gauge could not be read");
      }
    }),
  );
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the console's database within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
