import { and, asc, eq, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import { bankObjects, reviewCases } from "@/lib/db/console-schema";
import { maskForViewer, riskSummary } from "@/lib/pii";
import type { CaseState, ReviewKind, SlaTone } from "./codes";
import type { Reviewer } from "./store";

/** The review queue (`/reviews`): applications in the index awaiting a decision, read with their case's state. */
export interface QueueFilter {
  /** `mine`: assigned to the viewer; `unassigned`; `any`. */
  assignee: "any" | "mine" | "unassigned";
  kind: ReviewKind | "any";
  /** Only cases at least this many hours old (0: any age). */
  minAgeHours: number;
  /** `undecided`: open or awaiting second review (the default). */
  state: CaseState | "undecided" | "any";
}

export interface QueueRow {
  id: string;
  kind: ReviewKind;
  /** The application's name as staff may see it (masked through lib/pii.ts). */
  name: string;
  createdAt: string | null;
  ageHours: number;
  state: CaseState;
  assigneeId: string | null;
  assigneeEmail: string | null;
  risk: Array<{ field: string; value: string | number | boolean }>;
}

/**
 * Where a page of the queue starts: after the row with this creation time (microseconds since the epoch, exact; null
 * for an application the bank gave no time, ordered last) and id. In the URL as `page_cursor` (filter.ts).
 */
export interface QueueCursor {
  createdMicros: string | null;
  id: string;
}

/** The rows of one page and the cursor of the page after it (null on the last page). */
export interface QueuePage {
  rows: QueueRow[];
  next: QueueCursor | null;
}

/** Rows after `cursor` in the queue's order: (created, id) ascending, no creation time last. */
function after(cursor: QueueCursor): SQL | undefined {
  const created = bankObjects.bankCreatedAt;
  if (cursor.createdMicros === null) return and(isNull(created), sql`${bankObjects.id} > ${cursor.id}`);
  const at = sql`(timestamptz 'epoch' + ${cursor.createdMicros}::bigint * interval '1 microsecond')`;
  return or(sql`${created} > ${at}`, and(sql`${created} = ${at}`, sql`${bankObjects.id} > ${cursor.id}`), isNull(created));
}

/** The applicant's name as staff may see it, from the masked application (a person's first and last name). */
export function applicantName(kind: ReviewKind, masked: Record<string, unknown>): string {
  if (kind === "business_application") return typeof masked.name === "string" ? masked.name : "(no name)";
  return [masked.first_name, masked.last_name].filter((part) => typeof part === "string" && part).join(" ") || "(no name)";
}

/** What the filter keeps of the index (with `reviewCases` joined), the same for a page and for the counts. */
function filtered(environment: Environment, viewer: Reviewer, filter: QueueFilter, now: Date): Array<SQL | undefined> {
  const state = sql`coalesce(${reviewCases.state}, 'open')`;
  return [
    eq(bankObjects.environment, environment),
    filter.kind === "any" ? inArray(bankObjects.resource, ["person_application", "business_application"]) : eq(bankObjects.resource, filter.kind),
    sql`${bankObjects.state} IS NOT NULL`,
    filter.assignee === "mine"
      ? eq(reviewCases.assigneeId, viewer.id)
      : filter.assignee === "unassigned"
        ? isNull(reviewCases.assigneeId)
        : undefined,
    filter.state === "undecided" ? sql`${state} <> 'decided'` : filter.state === "any" ? undefined : sql`${state} = ${filter.state}`,
    filter.minAgeHours > 0 ? lte(bankObjects.bankCreatedAt, new Date(now.getTime() - filter.minAgeHours * 3_600_000)) : undefined,
  ];
}

const caseOf = and(eq(reviewCases.environment, bankObjects.environment), eq(reviewCases.applicationId, bankObjects.id));

/** How many applications a filter keeps, in all (every page), and how many of them are in each SLA colour. */
export interface QueueCounts {
  total: number;
  sla: Record<SlaTone, number>;
}

/**
 * The exact counts of a filter over the console's index, by the same colour rule as a row (`slaTone`): over at the
 * SLA's hours, due from three quarters of it; an application the bank gave no time counts as within, as its row shows.
 */
export async function countQueue(
  db: ConsoleDb,
  environment: Environment,
  viewer: Reviewer,
  filter: QueueFilter,
  slaHours: number,
  now = new Date(),
): Promise<QueueCounts> {
  const over = new Date(now.getTime() - slaHours * 3_600_000);
  const due = new Date(now.getTime() - slaHours * 0.75 * 3_600_000);
  const created = bankObjects.bankCreatedAt;
  const [row] = await db
    .select({
      total: sql<string>`count(*)`,
      over: sql<string>`count(*) filter (where ${created} <= ${over})`,
      due: sql<string>`count(*) filter (where ${created} > ${over} and ${created} <= ${due})`,
    })
    .from(bankObjects)
    .leftJoin(reviewCases, caseOf)
    .where(and(...filtered(environment, viewer, filter, now)));
  const total = Number(row?.total ?? 0);
  const overCount = Number(row?.over ?? 0);
  const dueCount = Number(row?.due ?? 0);
  return { total, sla: { over: overCount, due: dueCount, ok: total - overCount - dueCount } };
}

/** One page of the applications in the console's index awaiting a decision (or as filtered), oldest first. */
export async function readQueue(
  db: ConsoleDb,
  environment: Environment,
  viewer: Reviewer,
  filter: QueueFilter,
  page: { after?: QueueCursor; size: number },
  now = new Date(),
): Promise<QueuePage> {
  const conditions = [...filtered(environment, viewer, filter, now), page.after ? after(page.after) : undefined];
  const rows = await db
    .select({
      id: bankObjects.id,
      resource: bankObjects.resource,
      state: bankObjects.state,
      createdAt: bankObjects.bankCreatedAt,
      // Exact (a Date keeps milliseconds, the column microseconds): the next page's cursor must not repeat or skip a row.
      createdMicros: sql<string | null>`(extract(epoch from ${bankObjects.bankCreatedAt}) * 1000000)::bigint::text`,
      caseState: reviewCases.state,
      assigneeId: reviewCases.assigneeId,
      assigneeEmail: reviewCases.assigneeEmail,
    })
    .from(bankObjects)
    .leftJoin(reviewCases, caseOf)
    .where(and(...conditions))
    .orderBy(sql`${bankObjects.bankCreatedAt} ASC NULLS LAST`, asc(bankObjects.id))
    // One row more than shown says whether there is a next page.
    .limit(page.size + 1);
  const shown = rows.slice(0, page.size);
  const last = shown.at(-1);
  return {
    next: rows.length > page.size && last ? { createdMicros: last.createdMicros, id: last.id } : null,
    rows: shown.map((row) => {
      const kind = row.resource as ReviewKind;
      const unmasked = row.state as Record<string, unknown>;
      const risk = riskSummary(unmasked);
      const masked = maskForViewer(kind, { ...unmasked });
      return {
        id: row.id,
        kind,
        name: applicantName(kind, masked),
        createdAt: row.createdAt?.toISOString() ?? null,
        ageHours: row.createdAt ? Math.max(0, (now.getTime() - row.createdAt.getTime()) / 3_600_000) : 0,
        state: (row.caseState ?? "open") as CaseState,
        assigneeId: row.assigneeId,
        assigneeEmail: row.assigneeEmail,
        risk,
      };
    }),
  };
}
