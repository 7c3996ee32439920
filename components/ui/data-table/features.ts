/**
 * The grid's shared types. The engine (TanStack Table v9, its features and instance) is in ./engine.ts, a chunk loaded
 * once a list has hydrated: nothing here may import it at run time, or it would be in every list's first load again.
 */
export type { GridFeatures } from "./engine";

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
