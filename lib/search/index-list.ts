import { sql, type SQL } from "drizzle-orm";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { receiverUsernames } from "@/lib/index/console-webhooks";
import type { Role } from "@/lib/permissions";
import { maskForRole, maskForViewer, type MaskedResource } from "@/lib/pii";
import { maxSelectedRows } from "./index-filters";
import { nameCondition } from "./name-condition";
import { encodeIndexCursor, type IndexListFilter, type IndexListPage, type IndexListSort } from "./index-list-input";
import type { ConsoleDb } from "@/lib/db/console-db";

/** One page of a list served from the console's index: the same shape as the bank's page, plus what the index is. */
export interface IndexListResult {
  data: Record<string, unknown>[];
  /** The cursor of the next page, when there is one. */
  nextCursor: string | null;
  index: {
    /** When this page was read. */
    asOf: string;
    /** The index's newest change of this environment ("updated N s ago"). */
    lastChange: string | null;
    /** Whether the index has walked this list in full; if not, objects it has not seen yet are missing. */
    complete: boolean;
  };
}

const field = (name: string) => sql`o.state->>${name}`;

/** What the index is for a list: when it was read, its newest change, and whether it has walked the list in full. */
async function aboutIndex(db: ConsoleDb, environment: Environment, resource: ListedResource): Promise<IndexListResult["index"]> {
  const [about] = (
    await db.execute<{ as_of: string; last_change: string | null; complete: boolean }>(sql`
      SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of,
             (SELECT to_char(max(last_changed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM ${schema.bankObjects} WHERE environment = ${environment}) AS last_change,
             EXISTS (SELECT 1 FROM ${schema.indexBackfill} WHERE environment = ${environment} AND resource = ${resource} AND finished_at IS NOT NULL AND error IS NULL) AS complete`)
  ).rows;
  return { asOf: about!.as_of, lastChange: about!.last_change, complete: Boolean(about!.complete) };
}

/** The bank's own filters as the bank applies them, on the index's copy of each object. */
function bankConditions(filter: Record<string, string>): SQL[] {
  return Object.entries(filter).map(([name, value]) => {
    if (name === "from_date") return sql`o.bank_created_at >= ${`${value}T00:00:00Z`}::timestamptz`;
    if (name === "to_date") return sql`o.bank_created_at < ${`${value}T00:00:00Z`}::timestamptz`;
    if (name === "trace_suffix") return sql`${field("trace_number")} LIKE ${`%${value}`}`;
    return sql`${field(name)} = ${value}`;
  });
}

/**
 * What a list's count leaves out as the list does (lib/index/console-webhooks.ts, shownInList): on the webhooks list,
 * the console's own subscriptions, known by their Basic user.
 */
function shownInListConditions(resource: ListedResource): SQL[] {
  return resource === "webhook" ? [sql`coalesce(${field("basic_user")}, '') NOT IN ${receiverUsernames}`] : [];
}

function indexConditions(filter: IndexListFilter): SQL[] {
  const conditions = bankConditions(filter.bank);
  if (filter.amountMinCents !== undefined) conditions.push(sql`s.amount_cents >= ${filter.amountMinCents}`);
  if (filter.amountMaxCents !== undefined) conditions.push(sql`s.amount_cents <= ${filter.amountMaxCents}`);
  if (filter.statuses) conditions.push(sql`${field("status")} IN ${filter.statuses}`);
  if (filter.createdFrom) conditions.push(sql`o.bank_created_at >= ${filter.createdFrom.toISOString()}::timestamptz`);
  if (filter.createdBefore) conditions.push(sql`o.bank_created_at < ${filter.createdBefore.toISOString()}::timestamptz`);
  if (filter.updatedFrom) conditions.push(sql`o.bank_updated_at >= ${filter.updatedFrom.toISOString()}::timestamptz`);
  if (filter.updatedBefore) conditions.push(sql`o.bank_updated_at < ${filter.updatedBefore.toISOString()}::timestamptz`);
  if (filter.hasError === true) conditions.push(sql`coalesce(${field("error")}, '') <> ''`);
  if (filter.hasError === false) conditions.push(sql`coalesce(${field("error")}, '') = ''`);
  // An ACH transfer's `error` starts with its code ("R01 Insufficient Funds"); an instant payment names it apart.
  if (filter.returnCode) {
    conditions.push(
      sql`(${field("error")} = ${filter.returnCode} OR ${field("error")} LIKE ${`${filter.returnCode} %`} OR o.state #>> '{external_reject_reason,code}' = ${filter.returnCode})`,
    );
  }
  if (filter.name) conditions.push(nameCondition(filter.name));
  return conditions;
}

/** The creation time as the index writes it into a cursor: UTC to the microsecond. */
const createdText = sql`to_char(o.bank_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A column's value in the object, written as a constant (a definition's key, never the URL's text: parseListSort
 * checked the column against the list's columns), so the expression matches the indexes migration 0029 keeps for the
 * most sorted columns and PostgreSQL walks one of them instead of sorting every object of the list.
 */
function valueAt(path: string[]): SQL {
  if (!path.every((part) => /^[a-z_][a-z0-9_]*$/.test(part))) throw new Error(`not a column path: ${path.join(".")}`);
  return sql.raw(`o.state #>> '{${path.join(",")}}'`);
}

/**
 * How the index orders a sorted list: the column's value as one comparable expression, a missing value as the lowest
 * (first ascending, last descending) so the keyset comparison never meets a NULL; text by code point (`COLLATE "C"`),
 * the same on every database whatever its locale. `cursor` is the value as the cursor keeps it, `cast` reads it back.
 */
function sortKey(sort: IndexListSort | undefined): { key: SQL; cursor: SQL; cast: (value: string) => SQL } {
  if (!sort || sort.kind === "created") return { key: sql`o.bank_created_at`, cursor: createdText, cast: (value) => sql`${value}::timestamptz` };
  const value = valueAt(sort.path);
  const numeric = (key: SQL) => ({ key, cursor: sql`(${key})::text`, cast: (text: string) => sql`${text}::numeric` });
  switch (sort.kind) {
    case "amount":
    case "money":
      // An amount as the bank writes it ("1234.56"), as a number; anything else counts as missing.
      return numeric(sql`coalesce(CASE WHEN ${value} ~ '^[0-9]{1,13}[.][0-9]{2}$' THEN (${value})::numeric END, -1)`);
    case "time":
      // Epoch seconds: an instant compares as a number, and its cursor is digits a forged one cannot make unreadable.
      return numeric(
        sql`coalesce(CASE WHEN ${value} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' THEN round(extract(epoch FROM (${value})::timestamptz), 6) END, -1e12)`,
      );
    case "text":
      return { key: sql`(coalesce(${value}, '') COLLATE "C")`, cursor: sql`coalesce(${value}, '')`, cast: (text) => sql`${text}::text COLLATE "C"` };
  }
}

/**
 * A list page from the index: the objects of `resource` matching every filter, in the page's sort (by default newest
 * first as the bank lists them), ties broken by id in the same direction, each masked as every list is (lib/pii.ts)
 * unless `revealed` (an unmasked export by a role holding `pii:reveal`, checked and audited by its caller); with `role`,
 * the fields lib/pii.ts shows that role in every answer stay as the bank sent them, as the proxy's lists show them.
 */
export async function listFromIndex(
  db: ConsoleDb,
  environment: Environment,
  resource: ListedResource,
  page: IndexListPage,
  { revealed = false, role }: { revealed?: boolean; role?: Role } = {},
): Promise<IndexListResult> {
  const conditions = indexConditions(page.filter);
  const descending = page.sort ? page.sort.descending : true;
  const { key, cursor, cast } = sortKey(page.sort);
  const id = sql`(o.id COLLATE "C")`;
  if (page.after) {
    conditions.push(sql`(${key}, ${id}) ${descending ? sql`<` : sql`>`} (${cast(page.after.value)}, ${page.after.id}::text COLLATE "C")`);
  }
  const direction = descending ? sql`DESC` : sql`ASC`;
  const rows = await db.execute<{ id: string; state: Record<string, unknown>; sort_value: string }>(sql`
    SELECT o.id, o.state, ${cursor} AS sort_value
    FROM ${schema.bankObjects} o
    LEFT JOIN ${schema.bankSearch} s ON s.environment = o.environment AND s.id = o.id
    WHERE o.environment = ${environment} AND o.resource = ${resource} AND o.state IS NOT NULL AND o.bank_created_at IS NOT NULL
      ${conditions.length > 0 ? sql`AND ${sql.join(conditions, sql` AND `)}` : sql``}
    ORDER BY ${key} ${direction}, ${id} ${direction}
    LIMIT ${page.pageSize + 1}`);
  const shown = rows.rows.slice(0, page.pageSize);
  const last = shown.at(-1);
  return {
    data: shown.map((row) =>
      revealed ? row.state : role ? maskForRole(resource as MaskedResource, row.state, role) : maskForViewer(resource as MaskedResource, row.state),
    ),
    nextCursor: rows.rows.length > page.pageSize && last ? encodeIndexCursor({ value: last.sort_value, id: last.id }, page.sort) : null,
    index: await aboutIndex(db, environment, resource),
  };
}

/** At most how many ids "select all matching" takes from the index at once (a bulk action's limit). */
export const maxMatchingIds = maxSelectedRows;

/**
 * The ids of the objects matching a list's filters, in its order, at most `maxMatchingIds`: what "select all N
 * matching" selects. `more` says that more match than were given.
 */
export async function matchingIdsFromIndex(
  db: ConsoleDb,
  environment: Environment,
  resource: ListedResource,
  page: IndexListPage,
): Promise<{ ids: string[]; more: boolean }> {
  const { data, nextCursor } = await listFromIndex(db, environment, resource, { ...page, pageSize: maxMatchingIds, after: undefined });
  return { ids: data.map((row) => String(row.id)), more: nextCursor !== null };
}

/**
 * The statuses a filter asks for when it asks nothing else (every status: `undefined`), or null when it asks more.
 * Such a count is the index's kept one (bank_object_counts, migration 0023), not a count of the objects.
 */
function statusesAlone(filter: IndexListFilter): string[] | undefined | null {
  const { bank, statuses, ...others } = filter;
  if (Object.values(others).some((value) => value !== undefined)) return null;
  if (Object.keys(bank).some((name) => name !== "status")) return null;
  if (bank.status === undefined) return statuses;
  return statuses ? statuses.filter((status) => status === bank.status) : [bank.status];
}

/**
 * How many objects of `resource` match a list's filters (the bank's and the index's), as the index knows them: the
 * list header's exact count. Not masked data: a number, for filters every role may use.
 */
export async function countFromIndex(
  db: ConsoleDb,
  environment: Environment,
  resource: ListedResource,
  filter: IndexListFilter,
): Promise<{ count: number; index: IndexListResult["index"] }> {
  const leftOut = shownInListConditions(resource);
  const statuses = statusesAlone(filter);
  // The kept counts are of every object: a list that leaves some out counts its objects instead.
  if (statuses !== null && leftOut.length === 0) {
    // Every object has a `created_at` (lib/contract/resources.ts), so the kept counts are exactly what the list walks.
    const [kept] = (
      await db.execute<{ count: string }>(sql`
        SELECT coalesce(sum(objects), 0) AS count FROM ${schema.bankObjectCounts}
        WHERE environment = ${environment} AND resource = ${resource}
          ${statuses === undefined ? sql`` : statuses.length === 0 ? sql`AND false` : sql`AND status IN ${statuses}`}`)
    ).rows;
    return { count: Number(kept!.count), index: await aboutIndex(db, environment, resource) };
  }
  const conditions = [...indexConditions(filter), ...leftOut];
  const [counted] = (
    await db.execute<{ count: string }>(sql`
    SELECT count(*) AS count
    FROM ${schema.bankObjects} o
    LEFT JOIN ${schema.bankSearch} s ON s.environment = o.environment AND s.id = o.id
    WHERE o.environment = ${environment} AND o.resource = ${resource} AND o.state IS NOT NULL AND o.bank_created_at IS NOT NULL
      ${conditions.length > 0 ? sql`AND ${sql.join(conditions, sql` AND `)}` : sql``}`)
  ).rows;
  return { count: Number(counted!.count), index: await aboutIndex(db, environment, resource) };
}
