/**
 * A list's column arrangement as a person keeps it (in their browser, or in a saved view): which columns are shown,
 * their order, and the widths they set. Client-safe. Whatever is read back (a view from the database, a choice from
 * localStorage) is kept only where it names the list's own columns, so a renamed or removed column drops out quietly.
 */
import type { Field } from "@/lib/resources";

export interface ColumnLayout {
  visibility: Record<string, boolean>;
  order: string[];
  widths: Record<string, number>;
}

/** The narrowest and widest a person may make a column, in pixels. */
export const columnWidthBounds = { min: 48, max: 960 } as const;

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);
const isWidth = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= columnWidthBounds.min && value <= columnWidthBounds.max;

/**
 * The arrangement in `value` for these columns: `{visibility, order, widths}`, or a plain `{column: shown}` map (how
 * the visibility alone was kept before). Unknown columns, repeated ones and widths out of bounds are left out.
 */
export function layoutOf(columns: Pick<Field, "key">[], value: unknown): ColumnLayout {
  const known = new Set(columns.map((column) => column.key));
  const source = isRecord(value) ? value : {};
  const shape = isRecord(source.visibility) || Array.isArray(source.order) || isRecord(source.widths);
  const visibility = (shape ? source.visibility : source) as unknown;
  return {
    visibility: Object.fromEntries(
      Object.entries(isRecord(visibility) ? visibility : {}).filter(([key, shown]) => known.has(key) && typeof shown === "boolean"),
    ) as Record<string, boolean>,
    order:
      shape && Array.isArray(source.order)
        ? [...new Set(source.order.filter((key): key is string => typeof key === "string" && known.has(key)))]
        : [],
    widths: Object.fromEntries(
      Object.entries(shape && isRecord(source.widths) ? source.widths : {}).filter(([key, width]) => known.has(key) && isWidth(width)),
    ) as Record<string, number>,
  };
}

/** The layout with each column's default shown or hidden (its definition's `hiddenByDefault`) where it says nothing. */
export function withDefaultVisibility(columns: Pick<Field, "key" | "hiddenByDefault">[], layout: ColumnLayout): ColumnLayout {
  return { ...layout, visibility: { ...Object.fromEntries(columns.map((column) => [column.key, !column.hiddenByDefault])), ...layout.visibility } };
}

/** The columns' keys in the layout's order: those it names first, the others after in their own order. */
export function orderedKeys(columns: Pick<Field, "key">[], order: string[]): string[] {
  const keys = columns.map((column) => column.key);
  return [...order.filter((key) => keys.includes(key)), ...keys.filter((key) => !order.includes(key))];
}

/** The layout with `key` moved one place towards the start (-1) or the end (+1), the id staying first. */
export function movedColumn(columns: Pick<Field, "key">[], layout: ColumnLayout, key: string, step: -1 | 1): ColumnLayout {
  const keys = orderedKeys(columns, layout.order);
  const from = keys.indexOf(key);
  const to = from + step;
  if (from < 1 || to < 1 || to >= keys.length) return layout;
  [keys[from], keys[to]] = [keys[to]!, keys[from]!];
  return { ...layout, order: keys };
}

/** The layout with `key`'s width set (pixels), or back to its content's width (`undefined`). */
export function withColumnWidth(layout: ColumnLayout, key: string, width: number | undefined): ColumnLayout {
  const widths = Object.fromEntries(Object.entries(layout.widths).filter(([column]) => column !== key));
  return { ...layout, widths: width === undefined ? widths : { ...widths, [key]: width } };
}
