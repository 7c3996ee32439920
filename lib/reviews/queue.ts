import { and, asc, eq, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import { bankObjects, reviewCases } from "@/lib/db/console-schema";
import { maskForViewer, riskSummary } from "@/lib/pii";
import type { CaseState, ReviewKind } from "./codes";
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

export const queueLimit = 200;

function nameOf(kind: ReviewKind, masked: Record<string, unknown>): string {
  if (kind === "business_application") return typeof masked.name === "string" ? masked.name : "(no name)";
  return [masked.first_name, masked.last_name].filter((part) => typeof part === "string" && part).join(" ") || "(no name)";
}

/** Applications in the console's index awaiting a decision (or as filtered), oldest first, at most `queueLimit`. */
export async function readQueue(
  db: ConsoleDb,
  environment: Environment,
  viewer: Reviewer,
  filter: QueueFilter,
  now = new Date(),
): Promise<{ rows: QueueRow[]; more: boolean }> {
  const state = sql`coalesce(${reviewCases.state}, 'open')`;
  const conditions: Array<SQL | undefined> = [
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
  const rows = await db
    .select({
      id: bankObjects.id,
      resource: bankObjects.resource,
      state: bankObjects.state,
      createdAt: bankObjects.bankCreatedAt,
      caseState: reviewCases.state,
      assigneeId: reviewCases.assigneeId,
      assigneeEmail: reviewCases.assigneeEmail,
    })
    .from(bankObjects)
    .leftJoin(reviewCases, and(eq(reviewCases.environment, bankObjects.environment), eq(reviewCases.applicationId, bankObjects.id)))
    .where(and(...conditions))
    .orderBy(asc(bankObjects.bankCreatedAt), asc(bankObjects.id))
    .limit(queueLimit + 1);
  return {
    more: rows.length > queueLimit,
    rows: rows.slice(0, queueLimit).map((row) => {
      const kind = row.resource as ReviewKind;
      const unmasked = row.state as Record<string, unknown>;
      const risk = riskSummary(unmasked);
      const masked = maskForViewer(kind, { ...unmasked });
      return {
        id: row.id,
        kind,
        name: nameOf(kind, masked),
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
