"use client";

import { useRouter } from "next/navigation";
import { memo, useCallback, useEffect, useMemo, useRef, type KeyboardEvent, type ReactNode } from "react";
import { startNavigationProgress } from "./route-progress";

/** One column: its header, how a row renders in it, and whether it is right-aligned (money). */
export interface DataColumn<Row> {
  id: string;
  header: string;
  align?: "left" | "right";
  cell(row: Row): ReactNode;
}

/** Which columns are shown, by column id: a column is shown unless its entry is `false`. */
export type ColumnVisibility = Record<string, boolean>;

interface DataTableProps<Row> {
  caption: string;
  columns: DataColumn<Row>[];
  rows: Row[];
  rowId(row: Row): string;
  rowHref(row: Row): string;
  columnVisibility: ColumnVisibility;
  /** 1-based number of the first row, for `aria-rowindex` across pages. */
  firstRowNumber?: number;
  /** Rows still loading: skeleton rows in place of data. */
  loadingRows?: number;
  /** Shown in place of rows when there are none (and nothing is loading). */
  empty?: ReactNode;
  /** The rows shown are the previous page's while the new one loads: dimmed and marked busy. */
  stale?: boolean;
  /** Changes when another page of the same list is asked for: the table scrolls back to its top. */
  pageKey?: string;
}

/**
 * The one data table: real table semantics, columns the user can hide, and keyboard rows: arrow keys or j/k move
 * between rows, Enter (or a click outside a link) opens the row. Sorting is the bank's: rows stay in the order given.
 * Plain React (no table library: hiding columns was all it did, for ~12 kB gzip on every list). The cells' and rows'
 * shared classes are set once on the table (`[&_td]:...`), not on each of the 100 rows' cells: the first HTML of a
 * long page is mostly these attributes.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowId,
  rowHref,
  columnVisibility,
  firstRowNumber = 1,
  loadingRows = 0,
  empty,
  stale = false,
  pageKey,
}: DataTableProps<Row>) {
  const router = useRouter();
  const body = useRef<HTMLTableSectionElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const shownPage = useRef(pageKey);

  // Paging starts at the top of the table: its own scroll box back to the first row, and the page scrolled up to
  // the table's top if that was above the window.
  useEffect(() => {
    if (shownPage.current === pageKey) return;
    shownPage.current = pageKey;
    const element = box.current;
    if (!element) return;
    element.scrollTop = 0;
    if (element.getBoundingClientRect().top < 0) element.scrollIntoView({ block: "start" });
  }, [pageKey]);

  const open = useCallback(
    (href: string) => {
      startNavigationProgress();
      router.push(href);
    },
    [router],
  );
  const visible = useMemo(() => columns.filter((column) => columnVisibility[column.id] !== false), [columns, columnVisibility]);

  const onRowKeyDown = useCallback(
    (event: KeyboardEvent<HTMLTableRowElement>, href: string) => {
      const move = event.key === "ArrowDown" || event.key === "j" ? 1 : event.key === "ArrowUp" || event.key === "k" ? -1 : 0;
      if (move !== 0) {
        event.preventDefault();
        const all = [...(body.current?.querySelectorAll<HTMLTableRowElement>("tr[data-row]") ?? [])];
        all[all.indexOf(event.currentTarget) + move]?.focus();
      } else if (event.key === "Enter" && event.target === event.currentTarget) {
        open(href);
      }
    },
    [open],
  );

  // The table scrolls inside its own box (both ways), so the page never scrolls sideways; the header row and the
  // first column (the id) stay in view while it does.
  return (
    <div
      ref={box}
      data-testid="table-scroll"
      className="relative max-h-[calc(100dvh-9rem)] min-h-40 scroll-mt-2 overflow-auto overscroll-x-contain rounded-md border border-line bg-surface"
    >
      <table
        className="min-w-full border-separate border-spacing-0 text-sm [&_td]:border-b [&_td]:border-line [&_td]:px-2.5 [&_td.num]:text-right [&_td.num]:tabular-nums [&_td:first-child]:sticky [&_td:first-child]:left-0 [&_td:first-child]:z-10 [&_tr[data-row]]:cursor-pointer [&_tr[data-row]:focus-visible]:outline-offset-[-2px] [&_tr[data-row]:focus>td]:bg-surface-2 [&_tr[data-row]:hover>td]:bg-surface-2 [&_tr[data-row]:last-child>td]:border-b-0 [&_tr[data-row]>td]:bg-surface [&_tr[data-row]>td]:py-1.5 [&_tr[data-row]>td]:whitespace-nowrap [&_tr[data-skeleton]>td]:bg-surface [&_tr[data-skeleton]>td]:py-2"
        aria-rowcount={-1}
        aria-busy={stale || loadingRows > 0 || undefined}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 z-20">
          <tr>
            {visible.map((column, columnIndex) => (
              <th
                key={column.id}
                scope="col"
                className={`border-b border-line bg-surface-2 px-2.5 py-1.5 text-[11px] font-semibold tracking-wide whitespace-nowrap text-muted uppercase ${column.align === "right" ? "text-right" : "text-left"} ${columnIndex === 0 ? "sticky left-0 z-30" : ""}`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        {/* Dimmed only once a wait is long enough to notice (the fade starts after 150 ms), and clear again at once: a fade
            back in kept the new rows half painted for 150 ms, and every frame of a fade re-rasters the whole table. */}
        <tbody ref={body} className={stale ? "opacity-50 transition-opacity delay-150 duration-150" : undefined} data-stale={stale || undefined}>
          {loadingRows > 0
            ? Array.from({ length: loadingRows }, (_, index) => (
                <tr key={index} data-skeleton>
                  {visible.map((column) => (
                    <td key={column.id}>
                      <span className="block h-3 animate-pulse rounded bg-surface-2" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row, index) => {
                const id = rowId(row);
                return (
                  <DataRow
                    key={id}
                    row={row}
                    id={id}
                    href={rowHref(row)}
                    rowIndex={firstRowNumber + index}
                    first={index === 0}
                    columns={visible}
                    onOpen={open}
                    onKeyDown={onRowKeyDown}
                  />
                );
              })}
          {loadingRows === 0 && rows.length === 0 ? (
            <tr>
              <td colSpan={visible.length} className="py-8 text-center text-sm text-muted">
                {empty}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

interface DataRowProps<Row> {
  row: Row;
  id: string;
  href: string;
  rowIndex: number;
  first: boolean;
  columns: DataColumn<Row>[];
  onOpen(href: string): void;
  onKeyDown(event: KeyboardEvent<HTMLTableRowElement>, href: string): void;
}

/**
 * One row, rendered again only when its object, place or columns change: a filter or page change re-renders the list
 * with the previous rows while the new ones load, and re-rendering 50 unchanged rows was most of the ~90 ms React
 * held the main thread between a filter change and the request's answer (docs/benchmarks.md, pages).
 */
const DataRow = memo(function DataRow<Row>({ row, id, href, rowIndex, first, columns, onOpen, onKeyDown }: DataRowProps<Row>) {
  return (
    <tr
      data-row
      data-id={id}
      data-testid="bank-row"
      tabIndex={0}
      aria-rowindex={rowIndex}
      onKeyDown={(event) => onKeyDown(event, href)}
      onClick={(event) => {
        if (!(event.target as HTMLElement).closest("a,button")) onOpen(href);
      }}
    >
      {columns.map((column, cellIndex) => (
        <td
          key={column.id}
          className={column.align === "right" ? "num" : undefined}
          elementtiming={first && cellIndex === 0 ? "first-row" : undefined}
        >
          {column.cell(row)}
        </td>
      ))}
    </tr>
  );
}) as <Row>(props: DataRowProps<Row>) => ReactNode;
