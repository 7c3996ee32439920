"use client";

import { columnVisibilityFeature, createColumnHelper, tableFeatures, useTable, type ColumnVisibilityState, type RowData } from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import { useMemo, useRef, type KeyboardEvent, type ReactNode } from "react";

/** One column: its header, how a row renders in it, and whether it is right-aligned (money). */
export interface DataColumn<Row> {
  id: string;
  header: string;
  align?: "left" | "right";
  cell(row: Row): ReactNode;
}

const features = tableFeatures({ columnVisibilityFeature });

interface DataTableProps<Row extends RowData> {
  caption: string;
  columns: DataColumn<Row>[];
  rows: Row[];
  rowId(row: Row): string;
  rowHref(row: Row): string;
  columnVisibility: ColumnVisibilityState;
  /** 1-based number of the first row, for `aria-rowindex` across pages. */
  firstRowNumber?: number;
  /** Rows still loading: skeleton rows in place of data. */
  loadingRows?: number;
  /** Shown in place of rows when there are none (and nothing is loading). */
  empty?: ReactNode;
}

/**
 * The one data table (TanStack Table): real table semantics, columns the user can hide, and keyboard rows: arrow
 * keys or j/k move between rows, Enter (or a click outside a link) opens the row. Sorting is the bank's: rows stay in
 * the order given.
 */
export function DataTable<Row extends RowData>({ caption, columns, rows, rowId, rowHref, columnVisibility, firstRowNumber = 1, loadingRows = 0, empty }: DataTableProps<Row>) {
  const router = useRouter();
  const body = useRef<HTMLTableSectionElement>(null);
  const tableColumns = useMemo(() => {
    const helper = createColumnHelper<typeof features, Row>();
    return helper.columns(columns.map((column) => helper.display({ id: column.id, header: column.header })));
  }, [columns]);
  const table = useTable({ features, columns: tableColumns, data: rows, getRowId: (row: Row) => rowId(row), state: { columnVisibility } });
  const byId = useMemo(() => new Map(columns.map((column) => [column.id, column])), [columns]);
  const visible = table.getVisibleLeafColumns().map((column) => byId.get(column.id)!).filter(Boolean);

  function onKeyDown(event: KeyboardEvent<HTMLTableRowElement>, href: string) {
    const move = event.key === "ArrowDown" || event.key === "j" ? 1 : event.key === "ArrowUp" || event.key === "k" ? -1 : 0;
    if (move !== 0) {
      event.preventDefault();
      const all = [...(body.current?.querySelectorAll<HTMLTableRowElement>("tr[data-row]") ?? [])];
      all[all.indexOf(event.currentTarget) + move]?.focus();
    } else if (event.key === "Enter" && event.target === event.currentTarget) {
      router.push(href);
    }
  }

  return (
    <div className="overflow-x-auto rounded-md border border-line bg-surface">
      <table className="min-w-full text-sm" aria-rowcount={-1}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-line bg-surface-2">
          <tr>
            {visible.map((column) => (
              <th key={column.id} scope="col" className={`whitespace-nowrap px-3 py-1.5 text-[11px] font-semibold uppercase tracking-wide text-muted ${column.align === "right" ? "text-right" : "text-left"}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={body} className="divide-y divide-line">
          {loadingRows > 0
            ? Array.from({ length: loadingRows }, (_, index) => (
                <tr key={index} data-skeleton>
                  {visible.map((column) => (
                    <td key={column.id} className="px-3 py-2">
                      <span className="block h-3 animate-pulse rounded bg-surface-2" />
                    </td>
                  ))}
                </tr>
              ))
            : table.getRowModel().rows.map((row, index) => {
                const href = rowHref(row.original);
                return (
                  <tr
                    key={row.id}
                    data-row
                    data-id={row.id}
                    data-testid="bank-row"
                    tabIndex={0}
                    aria-rowindex={firstRowNumber + index}
                    onKeyDown={(event) => onKeyDown(event, href)}
                    onClick={(event) => {
                      if (!(event.target as HTMLElement).closest("a,button")) router.push(href);
                    }}
                    className="cursor-pointer hover:bg-surface-2 focus:bg-surface-2 focus-visible:outline-offset-[-2px]"
                  >
                    {visible.map((column, cellIndex) => (
                      <td
                        key={column.id}
                        className={`whitespace-nowrap px-3 py-1.5 ${column.align === "right" ? "text-right tabular-nums" : ""}`}
                        elementtiming={index === 0 && cellIndex === 0 ? "first-row" : undefined}
                      >
                        {column.cell(row.original)}
                      </td>
                    ))}
                  </tr>
                );
              })}
          {loadingRows === 0 && rows.length === 0 ? (
            <tr>
              <td colSpan={visible.length} className="px-3 py-8 text-center text-sm text-muted">
                {empty}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
