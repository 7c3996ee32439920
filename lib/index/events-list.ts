import { and, desc, eq, isNotNull, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { ResourceName } from "@/lib/contract/names";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { can, type Role } from "@/lib/permissions";
import { momentRange, type EventOutcome, type EventsFilter } from "./events-list-input";
import type { ConsoleDb } from "@/lib/db/console-db";
import { failureSummary } from "./timeline";

const inbox = schema.bankEventInbox;

export interface EventRow {
  id: number;
  environment: Environment;
  event: string;
  resource: ResourceName;
  objectId: string;
  receivedAt: string;
  lastReceivedAt: string;
  deliveries: number;
  attempts: number;
  outcome: EventOutcome;
  /** Why the last attempt failed, while the event waits for the next one. */
  error: string | null;
  processedAt: string | null;
  /** When a waiting event is tried again; null once processed. */
  nextAttemptAt: string | null;
}

/**
 * A row as `role` may see it: the fetch error's text (a bank error names internal addresses and ports) only for roles
 * holding `audit:read`; others are told that the bank could not be read (as History tells them, lib/index/timeline.ts).
 */
export function eventRowFor(role: Role, row: EventRow): EventRow {
  return row.error && !can(role, "audit:read") ? { ...row, error: failureSummary.event } : row;
}

function outcomeCondition(outcome: EventOutcome): SQL | undefined {
  if (outcome === "pending") return and(ne(inbox.state, "processed"), isNull(inbox.error));
  if (outcome === "error") return and(ne(inbox.state, "processed"), isNotNull(inbox.error));
  return and(eq(inbox.state, "processed"), eq(inbox.outcome, outcome));
}

function whereOf(filter: EventsFilter): SQL | undefined {
  return and(
    eq(inbox.environment, filter.environment),
    filter.event ? eq(inbox.event, filter.event) : undefined,
    filter.object ? eq(inbox.objectId, filter.object) : undefined,
    filter.from ? sql`${inbox.receivedAt} >= ${momentRange(filter.from)!.start.toISOString()}::timestamptz` : undefined,
    filter.to ? sql`${inbox.receivedAt} < ${momentRange(filter.to)!.end.toISOString()}::timestamptz` : undefined,
    filter.outcome ? outcomeCondition(filter.outcome) : undefined,
  );
}

/** The query behind `listEvents`, unsent (its tests read the plan PostgreSQL makes of it). */
export function eventsQueryOf(db: ConsoleDb, filter: EventsFilter, page: { limit: number; after?: number }) {
  const keyset = page.after ? sql`(${inbox.receivedAt}, ${inbox.id}) < (SELECT received_at, id FROM ${inbox} WHERE id = ${page.after})` : undefined;
  return db
    .select({
      id: inbox.id,
      environment: inbox.environment,
      event: inbox.event,
      resource: inbox.resource,
      objectId: inbox.objectId,
      receivedAt: inbox.receivedAt,
      lastReceivedAt: inbox.lastReceivedAt,
      deliveries: inbox.deliveries,
      attempts: inbox.attempts,
      state: inbox.state,
      outcome: inbox.outcome,
      error: inbox.error,
      processedAt: inbox.processedAt,
      nextAttemptAt: inbox.nextAttemptAt,
    })
    .from(inbox)
    .where(and(whereOf(filter), keyset))
    .orderBy(desc(inbox.receivedAt), desc(inbox.id))
    .limit(page.limit);
}

/** Received notifications, newest first; `after` is the id of the last one of the previous page (keyset on (received_at, id)). */
export async function listEvents(db: ConsoleDb, filter: EventsFilter, page: { limit: number; after?: number }): Promise<EventRow[]> {
  const rows = await eventsQueryOf(db, filter, page);
  return rows.map(({ state, outcome, receivedAt, lastReceivedAt, processedAt, nextAttemptAt, resource, ...row }) => ({
    ...row,
    resource: resource as ResourceName,
    outcome: state === "processed" ? outcome! : row.error ? "error" : "pending",
    receivedAt: receivedAt.toISOString(),
    lastReceivedAt: lastReceivedAt.toISOString(),
    processedAt: processedAt?.toISOString() ?? null,
    nextAttemptAt: state === "processed" ? null : nextAttemptAt.toISOString(),
  }));
}

/** Every event matching `filter`, newest first, read one keyset page of `pageSize` at a time (for the export). */
export async function* everyEvent(db: ConsoleDb, filter: EventsFilter, pageSize = 500): AsyncGenerator<EventRow> {
  let after: number | undefined;
  for (;;) {
    const rows = await listEvents(db, filter, { limit: pageSize, after });
    yield* rows;
    if (rows.length < pageSize) return;
    after = rows.at(-1)!.id;
  }
}

/** The export's CSV columns, in order (cells written by the shared writer's rules: lib/csv). */
export const eventCsvColumns = [
  "id",
  "environment",
  "event",
  "resource",
  "objectId",
  "receivedAt",
  "lastReceivedAt",
  "deliveries",
  "attempts",
  "outcome",
  "error",
  "processedAt",
  "nextAttemptAt",
] as const satisfies ReadonlyArray<keyof EventRow>;
