/**
 * A customer's money movements from the console's index (docs/search.md, "A customer's movements"): every object whose
 * `counterparty_id` names the counterparty (ACH transfers today, any kind that names one), newest first in keyset
 * pages, each masked as every page shows it, with the totals in and out over the last 30 days and what the index is.
 */
import { sql } from "drizzle-orm";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import { maskForViewer, type MaskedResource } from "@/lib/pii";

export interface CustomerMovement {
  id: string;
  resource: ListedResource;
  status: string | null;
  amount: string | null;
  /** `in` (money from the customer: an ACH debit), `out` (to it: an ACH credit), or null when the object does not say. */
  direction: "in" | "out" | null;
  createdAt: string | null;
}

export interface CustomerMovementsPage {
  data: CustomerMovement[];
  /** The cursor of the next page (`<created_at>|<id>` of the last row), when there is one. */
  nextCursor: string | null;
}

export interface CustomerTotals {
  /** Sums over the last 30 days, in cents, of movements that moved or will move money (not canceled, error or returned). */
  inCents: number;
  outCents: number;
  count: number;
  since: string;
}

/** Statuses whose money did not move (or came back): left out of the totals. */
export const unsettledStatuses = ["canceled", "error", "returned"];
export const customerPageSize = 10;
export const totalsDays = 30;

/** How the movement's direction reads from the customer's side: an ACH `debit` takes money from the counterparty. */
export function directionOf(state: Record<string, unknown>): CustomerMovement["direction"] {
  if (state.direction === "debit") return "in";
  if (state.direction === "credit") return "out";
  return null;
}

/** The movements naming the counterparty, read in the order of their index (migration 0032). */
const naming = (environment: Environment, counterpartyId: string) => sql`
  FROM ${schema.bankObjects} o
  WHERE o.environment = ${environment} AND (o.state ->> 'counterparty_id') = ${counterpartyId}`;

/** A cursor this list writes, or null for anything else (the route answers 400). */
export function readCursor(cursor: string): { createdAt: string; id: string } | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)\|([A-Za-z0-9_-]{1,100})$/.exec(cursor);
  return match ? { createdAt: match[1]!, id: match[2]! } : null;
}

export async function customerMovements(
  db: ConsoleDb,
  environment: Environment,
  counterpartyId: string,
  options: { cursor?: { createdAt: string; id: string } | null; pageSize?: number } = {},
): Promise<CustomerMovementsPage> {
  const pageSize = options.pageSize ?? customerPageSize;
  const after = options.cursor ? sql`AND (o.bank_created_at, o.id) < (${options.cursor.createdAt}::timestamptz, ${options.cursor.id})` : sql``;
  const rows = (
    await db.execute<{ id: string; resource: ListedResource; state: Record<string, unknown>; created: string }>(sql`
      SELECT o.id, o.resource, o.state,
             to_char(o.bank_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created
      ${naming(environment, counterpartyId)} ${after}
      ORDER BY o.bank_created_at DESC, o.id DESC
      LIMIT ${pageSize + 1}`)
  ).rows;
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    data: page.map((row) => {
      const shown = maskForViewer(row.resource as MaskedResource, structuredClone(row.state));
      return {
        id: row.id,
        resource: row.resource,
        status: typeof shown.status === "string" ? shown.status : null,
        amount: typeof shown.amount === "string" ? shown.amount : null,
        direction: directionOf(shown),
        createdAt: typeof shown.created_at === "string" ? shown.created_at : null,
      };
    }),
    nextCursor: rows.length > pageSize && last ? `${last.created}|${last.id}` : null,
  };
}

/** Totals in and out over the last 30 days (by the bank's creation time), from the index's copy of each movement. */
export async function customerTotals(db: ConsoleDb, environment: Environment, counterpartyId: string, now = new Date()): Promise<CustomerTotals> {
  const since = new Date(now.getTime() - totalsDays * 24 * 3600 * 1000).toISOString();
  const [totals] = (
    await db.execute<{ in_cents: string | null; out_cents: string | null; count: string }>(sql`
      SELECT sum(round((o.state ->> 'amount')::numeric * 100)) FILTER (WHERE o.state ->> 'direction' = 'debit') AS in_cents,
             sum(round((o.state ->> 'amount')::numeric * 100)) FILTER (WHERE o.state ->> 'direction' = 'credit') AS out_cents,
             count(*) AS count
      ${naming(environment, counterpartyId)}
        AND o.bank_created_at >= ${since}::timestamptz
        AND coalesce(o.state ->> 'status', '') NOT IN ${unsettledStatuses}`)
  ).rows;
  return { inCents: Number(totals?.in_cents ?? 0), outCents: Number(totals?.out_cents ?? 0), count: Number(totals?.count ?? 0), since };
}

/** The index's newest change of this environment and whether it has walked the ACH list in full (docs/bank-index.md). */
export async function indexFreshness(
  db: ConsoleDb,
  environment: Environment,
): Promise<{ asOf: string; lastChange: string | null; complete: boolean }> {
  const [about] = (
    await db.execute<{ as_of: string; last_change: string | null; complete: boolean }>(sql`
      SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of,
             (SELECT to_char(max(last_changed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM ${schema.bankObjects} WHERE environment = ${environment}) AS last_change,
             EXISTS (SELECT 1 FROM ${schema.indexBackfill} WHERE environment = ${environment} AND resource = 'ach' AND finished_at IS NOT NULL AND error IS NULL) AS complete`)
  ).rows;
  return { asOf: about!.as_of, lastChange: about!.last_change, complete: Boolean(about!.complete) };
}
