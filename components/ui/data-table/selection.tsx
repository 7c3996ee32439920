"use client";

import type { Row, RowData, Table } from "@tanstack/react-table";
import type { GridFeatures } from "./features";

const box = "size-4 cursor-pointer accent-accent align-middle";

/** A row's checkbox: a click selects or clears it, shift+click everything from the last row clicked (the engine's range). */
export function RowCheckbox<Data extends RowData>({ row, label }: { row: Row<GridFeatures, Data>; label: string }) {
  return <input type="checkbox" className={box} aria-label={label} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />;
}

/** The header's checkbox: every row of this page, checked when all are, mixed when some are. */
export function PageCheckbox<Data extends RowData>({ table }: { table: Table<GridFeatures, Data> }) {
  const all = table.getIsAllPageRowsSelected();
  const some = table.getIsSomePageRowsSelected();
  return (
    <input
      type="checkbox"
      className={box}
      aria-label="Select every row on this page"
      checked={all}
      ref={(element) => {
        if (element) element.indeterminate = some && !all;
      }}
      onChange={table.getToggleAllPageRowsSelectedHandler()}
    />
  );
}
