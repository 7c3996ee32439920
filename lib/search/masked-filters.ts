import { forbidden } from "@/lib/api/errors";
import { enforceRateLimit } from "@/lib/api/rate-limit";
import type { Role } from "@/lib/permissions";
import { isMaskedField, seesUnmasked, type MaskedResource } from "@/lib/pii";
import { isNamedKind, nameFields } from "./name-filter";

/**
 * Filters by masked fields (docs/search.md): a list or count filtered by a field tells whether a guess of its value
 * is right (one row or none), so a filter is a read of that field. A role filters only by fields it sees unmasked
 * (lib/pii.ts, the same table as the proxy's masking and search), on the bank's lists through the proxy and on the
 * index's lists and counts alike; where that field is masked for viewers, each such read is audited and rate-limited.
 */

/** The field of the object a list filter compares, where it is not the filter's own name (the bank's and the index's). */
const comparedField: Readonly<Record<string, string>> = {
  trace_suffix: "trace_number",
  from_date: "created_at",
  to_date: "created_at",
  created: "created_at",
  created_from: "created_at",
  created_to: "created_at",
  // Home's figures link to lists of what was created or last changed within a range of instants.
  created_in: "created_at",
  updated_in: "updated_at",
  amount_min: "amount",
  amount_max: "amount",
  statuses: "status",
  has_error: "error",
  // An ACH transfer's code leads its `error`; an instant payment's is in its reject reason, shown where `error` is.
  return_code: "error",
};
const paging = new Set(["page_size", "page_cursor"]);

/** The filters of a list query on fields masked for viewers, split by whether `role` sees the field unmasked. */
export function maskedFilters(resource: MaskedResource, role: Role, query: Record<string, unknown>) {
  const refused: string[] = [];
  const unmasked: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === "" || paging.has(name)) continue;
    const field = Object.hasOwn(comparedField, name) ? comparedField[name]! : name;
    // The name filter compares the fields a name is read from (lib/search/name-filter.ts).
    const masked = (name === "name" && isNamedKind(resource) ? nameFields[resource] : [field]).filter((one) => isMaskedField(resource, one));
    if (masked.length === 0) continue;
    if (masked.every((one) => seesUnmasked(resource, role, one))) unmasked[name] = String(value);
    else refused.push(name);
  }
  return { refused, unmasked };
}

/** Whether `role` may filter a list of `resource` by `name` (the list pages offer only those filters). */
export const mayFilterBy = (resource: MaskedResource, role: Role, name: string) =>
  maskedFilters(resource, role, { [name]: "any" }).refused.length === 0;

/**
 * Checks a list read's filters before anything is read: a filter on a field `user` sees masked is a 403 naming it; one
 * on a masked field the role sees unmasked spends the `maskedFilter` allowance (429 past it) and is returned for the
 * caller's audit record. Null when the query filters by no masked field.
 */
export async function guardMaskedFilters(
  resource: MaskedResource,
  user: { id: string; role: Role },
  query: Record<string, unknown>,
): Promise<Record<string, string> | null> {
  const { refused, unmasked } = maskedFilters(resource, user.role, query);
  if (refused.length > 0) {
    throw forbidden(`Your role sees ${refused.join(", ")} masked, so it may not filter or count by ${refused.length === 1 ? "it" : "them"}.`);
  }
  if (Object.keys(unmasked).length === 0) return null;
  await enforceRateLimit("maskedFilter", user.id);
  return unmasked;
}

/** The audit action of a list read filtered by masked fields. */
export const maskedFilterAction = (resource: MaskedResource) => `${resource}.masked_filter`;
