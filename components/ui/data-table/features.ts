import {
  columnOrderingFeature,
  columnPinningFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  rowSelectionFeature,
  tableFeatures,
} from "@tanstack/react-table";

/**
 * The table engine's features the console's grid uses, and only those (TanStack Table v9 tree-shakes the rest):
 * columns shown, their order, their widths, the id kept in view, and rows selected. Sorting is not among them: a
 * list's order is the bank's or the index's, asked of the server (lib/resources/sorting.ts).
 */
export const gridFeatures = tableFeatures({
  columnVisibilityFeature,
  columnOrderingFeature,
  columnPinningFeature,
  columnSizingFeature,
  rowSelectionFeature,
});
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

/** Selected rows by id (only `true` entries), as the engine keeps them. */
export type RowSelection = Record<string, true>;

/** The id of the checkbox column, first and kept in view. */
export const selectColumnId = "select";
