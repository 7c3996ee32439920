/**
 * The filters a list gets from the console's index, which the bank's list API cannot express (docs/search.md): an
 * amount range, several statuses at once, relative date presets, and "has an error"; and a sort by any column the index
 * holds (`sort`, lib/resources/sorting.ts), since the bank lists newest first only. Client-safe: names and presets
 * only; the server parses them in ./index-list-input.ts.
 */
export const indexFilterNames = [
  "amount_min",
  "amount_max",
  "statuses",
  "created",
  "created_from",
  "created_to",
  "has_error",
  // ACH transfers and instant payments that failed with this code (lib/contract/reason-codes.ts).
  "return_code",
  // A half-open range of instants, `<from>/<before>` in ISO 8601 UTC, either end empty (`/2026-11-28T05:00:00Z`):
  // Home links with them, so a day in the staff member's zone, or "unchanged for 24 h", lists exactly what it counted.
  "created_in",
  "updated_in",
  // Objects whose name holds every word (lists of kinds with names, lib/search/name-filter.ts).
  "name",
  "sort",
] as const;
export type IndexFilterName = (typeof indexFilterNames)[number];

export const datePresets = ["today", "yesterday", "last_7_days", "this_month", "custom"] as const;
export type DatePreset = (typeof datePresets)[number];

/** Whether a list's URL uses a filter only the index can serve: then the list is the index's answer, not the bank's. */
export function usesIndexFilters(query: Record<string, string>): boolean {
  return indexFilterNames.some((name) => query[name] !== undefined && query[name] !== "");
}

/** Index-served lists answer here (`GET /api/index-list/{resource}`), with the list URL's own query. */
export const indexListPath = (resource: string, query: Record<string, string>) => {
  const search = new URLSearchParams(query).toString();
  return `/api/index-list/${resource}${search ? `?${search}` : ""}`;
};

/** The exact count of a list's filters from the index (`GET /api/index-list/{resource}/count`). */
export const indexCountPath = (resource: string, filters: Record<string, string>) => {
  const search = new URLSearchParams(filters).toString();
  return `/api/index-list/${resource}/count${search ? `?${search}` : ""}`;
};

/** Kinds whose objects carry an `error` (the "has an error" filter). */
export const kindsWithError: readonly string[] = ["network_transfer", "ach", "fednow", "webhook"];
/**
 * Kinds whose failures carry a network code (the "return code" filter): an ACH transfer's NACHA code at the start of its
 * `error`, an instant payment's ISO 20022 `external_reject_reason.code` (lib/contract/reason-codes.ts).
 */
export const kindsWithReturnCode: readonly string[] = ["ach", "fednow"];
/** Kinds whose objects carry an `amount` (the amount range). */
export const kindsWithAmount: readonly string[] = ["network_transfer", "ach", "fednow"];

/** The ids of the objects matching a list's filters, at most 500 (`GET /api/index-list/{resource}/ids`, "select all N matching"). */
export const indexIdsPath = (resource: string, filters: Record<string, string>) => {
  const search = new URLSearchParams(filters).toString();
  return `/api/index-list/${resource}/ids${search ? `?${search}` : ""}`;
};

/** At most how many rows "select all matching" selects, and a bulk action takes, at once. */
export const maxSelectedRows = 500;
