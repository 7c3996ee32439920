"use client";

import { useMemo, type ReactNode } from "react";
import { ColumnMenu } from "@/components/bank/column-menu";
import { useColumnLayout } from "@/components/bank/use-column-layout";
import { DataTable, type DataColumn, type RowAttributes, type RowSelection } from "@/components/ui/data-table";
import { useConsoleSession } from "@/components/console/providers";
import { withColumnWidth } from "@/lib/views/layout";

/** A column of a table the server renders: its header, alignment, and whether it starts hidden. */
export interface RenderedColumn {
  id: string;
  header: string;
  align?: "left" | "right";
  hiddenByDefault?: boolean;
}

/** A row whose cells the server rendered (by column id), where it opens (if anywhere) and its own `data-` attributes. */
export interface RenderedRow {
  id: string;
  href?: string;
  cells: Record<string, ReactNode>;
  data?: RowAttributes;
}

const cellOf = (column: string) => (row: RenderedRow) => row.cells[column];
const hrefOf = (row: RenderedRow) => row.href;
const idOf = (row: RenderedRow) => row.id;
const attributesOf = (row: RenderedRow): RowAttributes => row.data ?? {};

/**
 * The one data table (components/ui/data-table) for the console's own pages read on the server (events, approvals,
 * the review queue, the audit log): the server renders each cell, in the staff member's zone and with its links, and
 * passes the rows here, where the engine adds what every list has: the "Columns" menu (shown, order) and widths,
 * remembered per user and list in this browser like a bank list's, the first column pinned, keyboard rows, and
 * checkboxes when `selection` is given. `above` is shown in the toolbar row, before the "Columns" menu (a bulk bar).
 */
export function RenderedTable({
  list,
  caption,
  columns,
  rows,
  empty,
  testId,
  selection,
  above,
}: {
  /** The name the arrangement is remembered under (`bank-console:columns:<user>:<list>`). */
  list: string;
  caption: string;
  columns: RenderedColumn[];
  rows: RenderedRow[];
  empty: ReactNode;
  testId?: string;
  selection?: { selected: RowSelection; onChange(next: RowSelection): void };
  above?: ReactNode;
}) {
  const { userId } = useConsoleSession();
  const fields = useMemo(
    () => columns.map((column) => ({ key: column.id, label: column.header, hiddenByDefault: column.hiddenByDefault })),
    [columns],
  );
  const [layout, setLayout] = useColumnLayout(userId, list, fields);
  const tableColumns = useMemo<DataColumn<RenderedRow>[]>(
    () => columns.map((column) => ({ id: column.id, header: column.header, align: column.align, cell: cellOf(column.id) })),
    [columns],
  );
  return (
    <>
      <div className="mb-2 flex flex-wrap items-center justify-end gap-2 text-xs">
        {above}
        <ColumnMenu columns={fields} layout={layout} onChange={setLayout} onReset={() => setLayout({ visibility: {}, order: [], widths: {} })} />
      </div>
      <DataTable
        caption={caption}
        columns={tableColumns}
        rows={rows}
        rowId={idOf}
        rowHref={hrefOf}
        rowAttributes={attributesOf}
        testId={testId}
        layout={layout}
        onWidthChange={(column, width) => setLayout(withColumnWidth(layout, column, width))}
        selection={selection}
        empty={empty}
      />
    </>
  );
}
