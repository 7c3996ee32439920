import { isStorableText } from "@/lib/contract/json-text";
import { isStorableInstant, storableInstantMessage } from "@/lib/contract/primitives";
import { listQueries } from "@/lib/contract/requests";
import { listedResources, type ListedResource } from "@/lib/contract/operations";
import { z } from "zod";
import { resources, type ResourceName } from "@/lib/resources";
import { parseListSort, sortParameter, writeSort, type ListSort, type SortKind } from "@/lib/resources/sorting";
import { parseNameFilter } from "./name-filter";
import { amountOf } from "./query";

import { datePresets, indexFilterNames, kindsWithReturnCode, type DatePreset } from "./index-filters";

export interface IndexListFilter {
  amountMinCents?: number;
  amountMaxCents?: number;
  statuses?: string[];
  /** Created at or after (inclusive) and before (exclusive), UTC. */
  createdFrom?: Date;
  createdBefore?: Date;
  hasError?: boolean;
  /** A return code or reject reason (`R01`, `AC04`): ACH transfers and instant payments that failed with it. */
  returnCode?: string;
  /** Last changed (the bank's `updated_at`) at or after (inclusive) and before (exclusive). */
  updatedFrom?: Date;
  updatedBefore?: Date;
  /** Words that must each appear in the object's name, and the fields it is read from (lib/search/name-filter.ts). */
  name?: { words: string[]; fields: readonly string[] };
  /** The bank's own filters, applied by the index as the bank would. */
  bank: Record<string, string>;
}

/** A list's sort as the index applies it: the column, its direction, how its values compare, and its path in the object. */
export interface IndexListSort extends ListSort {
  kind: SortKind;
  path: string[];
}

export interface IndexListPage {
  filter: IndexListFilter;
  pageSize: number;
  /** The order asked for; none: the bank's own, newest first. */
  sort?: IndexListSort;
  /**
   * Keyset position after which this page starts: the last row's sort value as text (its creation time without a
   * sort, or under a sort by creation time) and its id.
   */
  after?: { value: string; id: string };
}

const dayStart = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

/** The UTC range a preset names, at `now`. */
export function presetRange(preset: Exclude<DatePreset, "custom">, now: Date): { from: Date; before: Date } {
  const today = dayStart(now);
  switch (preset) {
    case "today":
      return { from: today, before: addDays(today, 1) };
    case "yesterday":
      return { from: addDays(today, -1), before: today };
    case "last_7_days":
      return { from: addDays(today, -6), before: addDays(today, 1) };
    case "this_month":
      return { from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), before: addDays(today, 1) };
  }
}

/** The statuses a resource's objects can have (its list's `status` filter), empty when it has none. */
export function statusesOf(resource: ListedResource): string[] {
  const shape = listQueries[resource].shape as Record<string, z.ZodType>;
  let status = shape.status;
  while (status instanceof z.ZodOptional) status = status.unwrap() as z.ZodType;
  return status instanceof z.ZodEnum ? status.options.map(String) : [];
}

const cursorPattern = /^ix\.([A-Za-z0-9_-]+)$/;

/**
 * The cursor of the page after the row with this sort value and id. Under a sort it also names the sort, so a cursor
 * kept from another order is refused rather than read as a position in this one.
 */
export const encodeIndexCursor = (after: { value: string; id: string }, sort?: ListSort) =>
  `ix.${Buffer.from(JSON.stringify(sort ? [writeSort(sort), after.value, after.id] : [after.value, after.id])).toString("base64url")}`;

/** What encodeIndexCursor writes as a creation time: PostgreSQL's UTC time to the microsecond. */
const cursorTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** What the index writes as an amount or an instant's epoch seconds (lib/search/index-list.ts): PostgreSQL numeric text. */
const cursorNumberPattern = /^-?\d{1,16}(\.\d{1,6})?$/;

function isCursorTime(value: string): boolean {
  if (!cursorTimePattern.test(value)) return false;
  const time = new Date(value);
  return !Number.isNaN(time.getTime()) && time.toISOString().slice(0, 19) === value.slice(0, 19) && isStorableInstant(time);
}

/** Whether a cursor's sort value is one the index could have written for this sort, so reading it back cannot fail. */
function isCursorValue(value: string, kind: SortKind | "created"): boolean {
  if (kind === "created") return isCursorTime(value);
  if (kind === "amount" || kind === "money" || kind === "time") return cursorNumberPattern.test(value);
  return value.length <= 2000 && isStorableText(value);
}

/**
 * A cursor is text from the URL: only the exact shape the list writes for this sort passes, a value PostgreSQL can
 * read back and an id it can compare (no NUL), so a forged one is a 400, never a database error.
 */
function decodeIndexCursor(cursor: string, sort: IndexListSort | undefined): { value: string; id: string } | null {
  const match = cursorPattern.exec(cursor);
  if (!match) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(decoded) || decoded.length !== (sort ? 3 : 2)) return null;
  const [value, id] = (sort ? decoded.slice(1) : decoded) as unknown[];
  if (sort && decoded[0] !== writeSort(sort)) return null;
  if (typeof value !== "string" || !isCursorValue(value, sort ? sort.kind : "created")) return null;
  if (typeof id !== "string" || id.length === 0 || id.length > 100 || !isStorableText(id)) return null;
  return { value, id };
}

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar date (2025-02-30 is not), as the start of that day in UTC; null otherwise. */
const dateOf = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return datePattern.test(value) && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value ? date : null;
};

const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
/** An instant range `<from>/<before>` (either end empty, not both), or a problem in words. */
function instantRange(name: string, value: string): { from?: Date; before?: Date } | string {
  const ends = value.split("/");
  const problem = `${name}: expected <from>/<before>, each a UTC time such as 2026-11-28T05:00:00Z or empty`;
  if (ends.length !== 2 || (!ends[0] && !ends[1])) return problem;
  const [from, before] = ends.map((end) => (end ? new Date(end) : undefined));
  for (const [index, end] of [from, before].entries()) {
    if (end === undefined) continue;
    if (!instantPattern.test(ends[index]!) || Number.isNaN(end.getTime())) return problem;
    if (!isStorableInstant(end)) return `${name}: ${storableInstantMessage}`;
  }
  if (from && before && from >= before) return `${name}: the end must be after the start`;
  return { ...(from && { from }), ...(before && { before }) };
}

/**
 * Reads an index-served list's URL: the index filters, the bank's own filters (checked by the bank's own schema, so
 * the same values are refused as the bank would refuse them), page size and cursor. Every problem is named.
 */
export function parseIndexListQuery(
  resource: ListedResource,
  params: Record<string, string>,
  now = new Date(),
): { ok: true; page: IndexListPage } | { ok: false; error: string } {
  const filter: IndexListFilter = { bank: {} };
  const bankParams: Record<string, string> = {};
  let cursor: string | undefined;
  for (const [name, value] of Object.entries(params)) {
    if (name === "page_cursor") cursor = value;
    else if (!(indexFilterNames as readonly string[]).includes(name)) bankParams[name] = value;
  }
  const bankQuery = listQueries[resource].safeParse(bankParams);
  if (!bankQuery.success) {
    const issue = bankQuery.error.issues[0]!;
    const field = issue.path.join(".") || (issue.code === "unrecognized_keys" ? issue.keys.join(", ") : "query");
    return { ok: false, error: `${field}: ${issue.message}` };
  }
  const { page_size: pageSize, ...bank } = bankQuery.data as Record<string, unknown>;
  filter.bank = Object.fromEntries(
    Object.entries(bank)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  );

  for (const [name, bound] of [
    ["amount_min", "amountMinCents"],
    ["amount_max", "amountMaxCents"],
  ] as const) {
    const value = params[name]?.trim();
    if (!value) continue;
    const cents = amountOf(value);
    if (cents === null) return { ok: false, error: `${name}: expected an amount such as 1234.56 or $1,234.56` };
    filter[bound] = cents;
  }
  if (filter.amountMinCents !== undefined && filter.amountMaxCents !== undefined && filter.amountMinCents > filter.amountMaxCents) {
    return { ok: false, error: "amount_max: must not be below amount_min" };
  }
  if (params.statuses) {
    const known = statusesOf(resource);
    const statuses = [
      ...new Set(
        params.statuses
          .split(",")
          .map((status) => status.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = statuses.filter((status) => !known.includes(status));
    if (known.length === 0) return { ok: false, error: "statuses: this list has no statuses" };
    if (unknown.length > 0) return { ok: false, error: `statuses: ${unknown.join(", ")} is not a status of this list (one of ${known.join(", ")})` };
    if (statuses.length > 0) filter.statuses = statuses;
  }
  if (params.created) {
    if (!(datePresets as readonly string[]).includes(params.created))
      return { ok: false, error: `created: must be one of ${datePresets.join(", ")}` };
    if (params.created === "custom") {
      const from = params.created_from ? dateOf(params.created_from) : undefined;
      const to = params.created_to ? dateOf(params.created_to) : undefined;
      if (from === null) return { ok: false, error: "created_from: expected a date YYYY-MM-DD" };
      if (to === null) return { ok: false, error: "created_to: expected a date YYYY-MM-DD" };
      if (!from && !to) return { ok: false, error: "created_from: a custom range needs a start or an end date" };
      if (from && !isStorableInstant(from)) return { ok: false, error: `created_from: ${storableInstantMessage}` };
      if (to && !isStorableInstant(addDays(to, 1))) return { ok: false, error: `created_to: ${storableInstantMessage}` };
      if (from && to && from > to) return { ok: false, error: "created_to: must not be before created_from" };
      if (from) filter.createdFrom = from;
      if (to) filter.createdBefore = addDays(to, 1);
    } else {
      const range = presetRange(params.created as Exclude<DatePreset, "custom">, now);
      filter.createdFrom = range.from;
      filter.createdBefore = range.before;
    }
  } else if (params.created_from || params.created_to) {
    return { ok: false, error: "created: set created=custom to give a date range" };
  }
  if (params.created_in) {
    if (params.created) return { ok: false, error: "created_in: give either created or created_in, not both" };
    const range = instantRange("created_in", params.created_in);
    if (typeof range === "string") return { ok: false, error: range };
    if (range.from) filter.createdFrom = range.from;
    if (range.before) filter.createdBefore = range.before;
  }
  if (params.updated_in) {
    const range = instantRange("updated_in", params.updated_in);
    if (typeof range === "string") return { ok: false, error: range };
    if (range.from) filter.updatedFrom = range.from;
    if (range.before) filter.updatedBefore = range.before;
  }
  if (params.has_error) {
    if (params.has_error !== "true" && params.has_error !== "false") return { ok: false, error: "has_error: must be true or false" };
    filter.hasError = params.has_error === "true";
  }
  if (params.return_code) {
    if (!kindsWithReturnCode.includes(resource)) return { ok: false, error: "return_code: only ACH transfers and instant payments carry one" };
    if (!/^[A-Z0-9]{3,4}$/.test(params.return_code)) return { ok: false, error: "return_code: expected a code such as R01 or AC04" };
    filter.returnCode = params.return_code;
  }
  if (params.name) {
    const name = parseNameFilter(resource, params.name);
    if (!name.ok) return name;
    filter.name = name;
  }
  let sort: IndexListSort | undefined;
  if (params[sortParameter] !== undefined) {
    const parsed = parseListSort(resources[resource as ResourceName].columns, params[sortParameter]);
    if (!parsed.ok) return parsed;
    sort = { ...parsed.sort, kind: parsed.kind, path: parsed.field.key.split(".") };
  }
  let after: IndexListPage["after"];
  if (cursor !== undefined) {
    const decoded = decodeIndexCursor(cursor, sort);
    if (!decoded) return { ok: false, error: "page_cursor: not a cursor of this list (start again from the first page)" };
    after = decoded;
  }
  return {
    ok: true,
    page: { filter, pageSize: typeof pageSize === "number" ? pageSize : Number(pageSize ?? 100), ...(sort && { sort }), ...(after && { after }) },
  };
}

const indexedResourceNames = Object.keys(listedResources) as [ListedResource, ...ListedResource[]];

/**
 * The route input of `/api/index-list/{resource}` and its `/count`: a listed resource, and a query checked by
 * parseIndexListQuery (which names each problem).
 */
export const indexListRouteInput = {
  params: z.strictObject({
    resource: z.enum(indexedResourceNames, { error: `resource must be one of ${indexedResourceNames.join(", ")}` }),
  }),
  query: z.record(z.string(), z.string()),
};
