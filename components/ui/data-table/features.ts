import { columnOrderingFeature, columnVisibilityFeature, rowSelectionFeature, tableFeatures } from "@tanstack/react-table";

/**
 * The table engine's features the console's grid uses, and only those (TanStack Table v9 tree-shakes the rest):
 * columns shown, their order, and rows selected. Widths and the pinned id are the grid's own: a width set is the
 * cell's style and the pinned columns are sticky by CSS, so the engine's sizing and pinning features (about 2 kB
 * gzip more on every list) would only compute offsets the browser already lays out. Sorting is not
 * among them either: a list's order is the bank's or the index's, asked of the server (lib/resources/sorting.ts).
 */
export const gridFeatures = tableFeatures({ columnVisibilityFeature, columnOrderingFeature, rowSelectionFeature });
export type GridFeatures = typeof gridFeatures;

/** One column: its header, how a row renders in it, and whether it is right-aligned (money). */
export interface DataColumn<Row> {
  id: string;
  header: string;
  align?: "left" | "right";
  cell(row: Row): React.ReactNode;
}

/**
 * How a person arranged a table's columns (lib/views/layout.ts): which are shown (shown unless `false`), their order
 * (ids; columns not named follow in their own order), and the widths they set in pixels (others size to their content).
 */
export type { ColumnLayout } from "@/lib/views/layout";
export { columnWidthBounds } from "@/lib/views/layout";

/** A row's own `data-` attributes (`data-testid`, a state a test or a style reads). */
export type RowAttributes = Readonly<Record<`data-${string}`, string | undefined>>;

/** Selected rows by id (only `true` entries), as the engine keeps them. */
export type RowSelection = Record<string, true>;

/** The id of the checkbox column, first and kept in view. */
export const selectColumnId = "select";
