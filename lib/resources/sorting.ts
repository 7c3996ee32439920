/**
 * Which list columns the console's index can sort by, and how a sort is written in a list's URL (`sort=amount`,
 * `sort=-amount` for descending). Client-safe: the list's header menu and the index's query read the same rules
 * (docs/search.md, sorting).
 */
import type { Field } from "./types";

/** The URL parameter naming a list's sort; a list sorted by it is the index's answer, not the bank's. */
export const sortParameter = "sort";

/** How the bank orders its own lists (and the index orders a list with no sort). */
export const bankOrder = "newest first";

/**
 * How a column's values compare: `amount` and `money` as numbers (`amount` has an index of its own), `created`
 * the object's creation time as the index keeps it, `time` other instants, `text` the value's characters (dates and
 * statuses included), in code point order.
 */
export type SortKind = "amount" | "money" | "created" | "time" | "text";

const textFormats = new Set([undefined, "text", "mono", "id", "status", "enum", "date"]);

/** How a list column sorts, or null when its values have no useful order (JSON, lists, addresses, yes/no). */
export function sortKindOf(field: Field): SortKind | null {
  if (field.format === "money") return field.key === "amount" ? "amount" : "money";
  if (field.format === "timestamp") return field.key === "created_at" ? "created" : "time";
  return textFormats.has(field.format) ? "text" : null;
}

export interface ListSort {
  column: string;
  descending: boolean;
}

/** A `sort=` value read as a column and a direction, without checking the column (parseListSort does). */
export function readSort(value: string | undefined): ListSort | null {
  if (!value) return null;
  return value.startsWith("-") ? { column: value.slice(1), descending: true } : { column: value, descending: false };
}

export const writeSort = (sort: ListSort) => `${sort.descending ? "-" : ""}${sort.column}`;

/**
 * A list's `sort=` checked against its columns: the sort, or the problem in words naming the column. A column the
 * list does not sort by is refused rather than ignored, so a link never shows rows in an order it does not say.
 */
export function parseListSort(
  columns: Field[],
  value: string,
): { ok: true; sort: ListSort; kind: SortKind; field: Field } | { ok: false; error: string } {
  const sort = readSort(value);
  const field = sort && columns.find((column) => column.key === sort.column);
  const kind = field ? sortKindOf(field) : null;
  if (!sort || !field || !kind) {
    const sortable = columns.filter((column) => sortKindOf(column)).map((column) => column.key);
    return {
      ok: false,
      error: `sort: cannot sort this list by "${sort?.column ?? value}" (one of ${sortable.join(", ")}, - before it for descending)`,
    };
  }
  return { ok: true, sort, kind, field };
}
