import { sql } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";
import { listHref, type ResourceName } from "@/lib/resources/routes";
import type { ZoneDay } from "./zone-days";

/**
 * What went wrong today and what is stuck, counted in the console's index (docs/home.md). Every figure carries the
 * link to the list of exactly those objects: the index-served list takes the same conditions (`updated_in`,
 * `created_in`: half-open ranges of instants, lib/search/index-list-input.ts), so its count is Home's figure.
 */

/** A figure and the list that explains it. */
export interface LinkedCount {
  count: number;
  href: string;
}

/** Outcomes counted by the day the object last changed (the bank's `updated_at`: for a finished transfer, when it finished). */
export const outcomes: ReadonlyArray<{ resource: ResourceName; status: string; label: string }> = [
  { resource: "ach", status: "returned", label: "ACH transfers returned" },
  { resource: "ach", status: "error", label: "ACH transfers in error" },
  { resource: "network_transfer", status: "error", label: "Network transfers in error" },
  { resource: "fednow", status: "error", label: "Instant payments in error" },
];

/**
 * How long a transfer usually stays in a state before it moves on. One that has not changed for longer is "stuck".
 * The bounds are a working day's rules, not the sandbox's one-minute steps: a weekend or a holiday makes more of them.
 */
export const usualHours: ReadonlyArray<{ resource: ResourceName; status: string; hours: number; why: string }> = [
  { resource: "ach", status: "pending", hours: 24, why: "an entry leaves in one of the day's ACH windows" },
  { resource: "ach", status: "processing", hours: 72, why: "an entry settles within two business days" },
  { resource: "network_transfer", status: "pending", hours: 24, why: "a transfer is sent the same business day" },
  { resource: "fednow", status: "pending", hours: 1, why: "an instant payment settles in seconds" },
  { resource: "fednow", status: "processing", hours: 1, why: "an instant payment settles in seconds" },
];

/** Money movements charted per day. */
export const volumeKinds: readonly ResourceName[] = ["ach", "network_transfer", "fednow"];

/** A UTC instant as the list's range filters take it: `2026-11-28T05:00:00Z` (milliseconds only when there are some). */
const instant = (date: Date) => date.toISOString().replace(".000Z", "Z");
const range = (from: Date | null, before: Date | null) => `${from ? instant(from) : ""}/${before ? instant(before) : ""}`;

/** Objects the index lists: the same base conditions as the index-served list (lib/search/index-list.ts). */
const listed = (environment: Environment) => sql`o.environment = ${environment} AND o.state IS NOT NULL AND o.bank_created_at IS NOT NULL`;

export interface OutcomeFigure {
  label: string;
  resource: ResourceName;
  status: string;
  today: LinkedCount;
  yesterday: LinkedCount;
}

/** Returns and errors of today and of yesterday, by the day each object last changed. */
export async function outcomesOfDays(db: ConsoleDb, environment: Environment, today: ZoneDay, yesterday: ZoneDay): Promise<OutcomeFigure[]> {
  const rows = await db.execute<{ resource: string; status: string; today: number; yesterday: number }>(sql`
    SELECT o.resource, o.state->>'status' AS status,
      (count(*) FILTER (WHERE o.bank_updated_at >= ${today.from.toISOString()}::timestamptz))::int AS today,
      (count(*) FILTER (WHERE o.bank_updated_at < ${today.from.toISOString()}::timestamptz))::int AS yesterday
    FROM ${schema.bankObjects} o
    WHERE ${listed(environment)}
      AND o.resource IN ${[...new Set(outcomes.map((outcome) => outcome.resource))]}
      AND o.state->>'status' IN ${[...new Set(outcomes.map((outcome) => outcome.status))]}
      AND o.bank_updated_at >= ${yesterday.from.toISOString()}::timestamptz AND o.bank_updated_at < ${today.before.toISOString()}::timestamptz
    GROUP BY 1, 2`);
  return outcomes.map(({ resource, status, label }) => {
    const row = rows.rows.find((found) => found.resource === resource && found.status === status);
    const link = (day: ZoneDay) => listHref(resource, { status, updated_in: range(day.from, day.before) });
    return {
      label,
      resource,
      status,
      today: { count: Number(row?.today ?? 0), href: link(today) },
      yesterday: { count: Number(row?.yesterday ?? 0), href: link(yesterday) },
    };
  });
}

export interface StuckFigure extends LinkedCount {
  resource: ResourceName;
  status: string;
  hours: number;
  why: string;
}

/** Transfers in a state for longer than usual at `now`: unchanged since before `now` minus the state's usual hours. */
export async function stuckTransfers(db: ConsoleDb, environment: Environment, now: Date): Promise<StuckFigure[]> {
  const cutoffs = usualHours.map((usual) => ({ ...usual, before: new Date(now.getTime() - usual.hours * 3_600_000) }));
  const rows = await db.execute<{ resource: string; status: string; count: number }>(sql`
    SELECT o.resource, o.state->>'status' AS status, count(*)::int AS count
    FROM ${schema.bankObjects} o
    JOIN (VALUES ${sql.join(
      cutoffs.map((cutoff) => sql`(${cutoff.resource}::text, ${cutoff.status}::text, ${cutoff.before.toISOString()}::timestamptz)`),
      sql`, `,
    )}) AS usual(resource, status, before) ON usual.resource = o.resource AND usual.status = o.state->>'status'
    WHERE ${listed(environment)} AND o.bank_updated_at < usual.before
    GROUP BY 1, 2`);
  return cutoffs.map(({ resource, status, hours, why, before }) => ({
    resource,
    status,
    hours,
    why,
    count: Number(rows.rows.find((row) => row.resource === resource && row.status === status)?.count ?? 0),
    href: listHref(resource, { status, updated_in: range(null, before) }),
  }));
}

export interface DayVolume extends LinkedCount {
  day: string;
  /** Amounts by currency, in cents (the index's `amount_cents`). */
  cents: Record<string, number>;
}

export interface KindVolume {
  resource: ResourceName;
  days: DayVolume[];
}

/** Per money movement kind and day (by creation time), how many were created and for how much, oldest day first. */
export async function volumeByDay(db: ConsoleDb, environment: Environment, days: ZoneDay[]): Promise<KindVolume[]> {
  const rows = await db.execute<{ resource: string; day: string; currency: string; count: number; cents: string | null }>(sql`
    SELECT o.resource, d.day, coalesce(o.state->>'currency', 'USD') AS currency, count(*)::int AS count, sum(s.amount_cents)::text AS cents
    FROM ${schema.bankObjects} o
    LEFT JOIN ${schema.bankSearch} s ON s.environment = o.environment AND s.id = o.id
    JOIN (VALUES ${sql.join(
      days.map((day) => sql`(${day.day}::text, ${day.from.toISOString()}::timestamptz, ${day.before.toISOString()}::timestamptz)`),
      sql`, `,
    )}) AS d(day, starts, ends) ON o.bank_created_at >= d.starts AND o.bank_created_at < d.ends
    WHERE ${listed(environment)} AND o.resource IN ${volumeKinds}
    GROUP BY 1, 2, 3`);
  return volumeKinds.map((resource) => ({
    resource,
    days: days.map((day) => {
      const found = rows.rows.filter((row) => row.resource === resource && row.day === day.day);
      return {
        day: day.day,
        count: found.reduce((sum, row) => sum + Number(row.count), 0),
        cents: Object.fromEntries(found.map((row) => [row.currency, Number(row.cents ?? 0)])),
        href: listHref(resource, { created_in: range(day.from, day.before) }),
      };
    }),
  }));
}
