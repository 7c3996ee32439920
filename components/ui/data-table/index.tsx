"use client";

import type { RowData } from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore, type ChangeEvent, type KeyboardEvent, type ReactNode } from "react";
import { startNavigationProgress } from "../navigation-progress";
import { DataRow } from "./data-row";
import type { GridColumnDef, GridOptions } from "./engine";
import { selectColumnId, type ColumnLayout, type DataColumn, type RowAttributes, type RowSelection } from "./features";
import { HeaderCell } from "./header-cell";
import { PageCheckbox } from "./selection";

export { columnWidthBounds, type ColumnLayout, type DataColumn, type RowAttributes, type RowSelection } from "./features";

interface DataTableProps<Row extends RowData> {
  caption: string;
  columns: DataColumn<Row>[];
  rows: Row[];
  rowId(row: Row): string;
  /** Where a row opens (Enter, or a click outside its links and controls); without one, or `undefined`, it opens nowhere. */
  rowHref?(row: Row): string | undefined;
  /** A row's own `data-` attributes (test ids, states) in place of `data-testid="bank-row"`; a stable function. */
  rowAttributes?(row: Row): RowAttributes;
  /** The table element's `data-testid`. */
  testId?: string;
  layout: ColumnLayout;
  /** A column's width set (a number) or back to its content's (undefined); without it widths are not adjustable. */
  onWidthChange?(column: string, width: number | undefined): void;
  /** Rows the person selected, by id, and its change; without it rows have no checkboxes. */
  selection?: { selected: RowSelection; onChange(next: RowSelection): void };
  /** What a column's header shows in place of its label (its sort menu), if anything. */
  headerMenu?(column: DataColumn<Row>): ReactNode;
  /** The column the rows are in the order of, for `aria-sort`. */
  sortedBy?: { column: string; descending: boolean } | null;
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

const noSelection: RowSelection = {};

// The engine (./engine.ts) is a chunk of its own, asked for as soon as this module runs in the browser and used from
// the first render after hydration: the server and the hydrating browser render the same rows without it (the same
// markup, from the same columns, layout and selection), so its arrival changes no DOM, moves nothing, and keyboard rows
// and checkboxes work from hydration on. Its 13.6 kB gzip were in every list's first-load JavaScript.
type Engine = typeof import("./engine");
let engine: Engine | null = null;
const engineWaiters = new Set<() => void>();
if (typeof window !== "undefined") {
  void import("./engine").then(
    (module) => {
      engine = module;
      for (const waiter of engineWaiters) waiter();
    },
    // Without it (a deploy replaced the chunk, the network dropped) the grid keeps working as rendered, without shift+click ranges.
    () => {},
  );
}
const onEngine = (waiter: () => void) => {
  engineWaiters.add(waiter);
  return () => void engineWaiters.delete(waiter);
};
const loadedEngine = () => engine;
const noEngine = () => null;

/** The shown columns in order without the engine: the pinned ones, then those the layout orders, then the rest, less the hidden. */
function shownColumns(ids: string[], order: string[], visibility: Readonly<Record<string, boolean>>): string[] {
  const ordered = [...order.filter((id) => ids.includes(id)), ...ids.filter((id) => !order.includes(id))];
  return ordered.filter((id) => visibility[id] !== false);
}

/**
 * The one data table, on TanStack Table v9 (./engine.ts, loaded after hydration): real table semantics; columns the
 * person shows, orders and sizes; the id (and the checkboxes) kept in view while the table scrolls sideways; rows
 * selected by checkbox (shift+click for a range) or by keyboard. Keyboard rows: arrow keys or j/k move between rows,
 * shift with them selects as it moves, space selects the row, Enter (or a click outside a link) opens it when it has a
 * `rowHref` (a row without one keeps its links and controls in its cells). Rows stay in the order given: sorting is
 * the server's. Cells are top-aligned (a row of several lines reads from its top) and do not wrap unless their content
 * says so (`whitespace-normal`). The cells' and rows' shared classes are set once on the table
 * (`[&_td]:...`), not on each of the 100 rows' cells: the first HTML of a long page is mostly these attributes.
 */
export function DataTable<Row extends RowData>({
  caption,
  columns,
  rows,
  rowId,
  rowHref,
  rowAttributes,
  testId,
  layout,
  onWidthChange,
  selection,
  headerMenu,
  sortedBy,
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
  const selectable = Boolean(selection);

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

  const definitions = useMemo<GridColumnDef<Row>[]>(
    () => [
      ...(selectable ? [{ id: selectColumnId, header: "Select" }] : []),
      ...columns.map((column) => ({
        id: column.id,
        header: column.header,
        cell: ({ row }: { row: { original: Row } }) => column.cell(row.original),
      })),
    ],
    [columns, selectable],
  );
  const firstColumn = columns[0]?.id;
  const pinned = useMemo(() => [...(selectable ? [selectColumnId] : []), ...(firstColumn ? [firstColumn] : [])], [selectable, firstColumn]);
  const order = useMemo(() => [...pinned, ...layout.order.filter((id) => !pinned.includes(id))], [pinned, layout.order]);
  const selected = selection?.selected ?? noSelection;
  const options: GridOptions<Row> = {
    columns: definitions,
    data: rows,
    getRowId: (row) => rowId(row),
    enableRowSelection: selectable,
    state: {
      columnVisibility: layout.visibility,
      // The pinned columns (checkbox, id) first whatever the order asked: only the others move.
      columnOrder: order,
      rowSelection: selected,
    },
    onRowSelectionChange: (change) => selection?.onChange((typeof change === "function" ? change(selected) : change) as RowSelection),
  };
  const loaded = useSyncExternalStore(onEngine, loadedEngine, noEngine);
  // One engine instance per table, given the current options on every render (as the React adapter does).
  const table = useMemo(() => (loaded ? loaded.createGrid<Row>() : null), [loaded]);
  if (table && loaded) loaded.updateGrid(table, options);

  const open = useCallback(
    (href: string) => {
      startNavigationProgress();
      router.push(href);
    },
    [router],
  );

  const select = selection
    ? (ids: string[], selected: boolean) => {
        const next: RowSelection = { ...selection.selected };
        for (const id of ids) {
          if (selected) next[id] = true;
          else delete next[id];
        }
        selection.onChange(next);
      }
    : null;
  const selectRef = useRef(select);
  useEffect(() => {
    selectRef.current = select;
  });

  const onRowKeyDown = useCallback(
    (event: KeyboardEvent<HTMLTableRowElement>, id: string, isSelected: boolean, href: string | undefined) => {
      if (event.target !== event.currentTarget) return;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key; // shift+j is "J"
      const move = key === "ArrowDown" || key === "j" ? 1 : key === "ArrowUp" || key === "k" ? -1 : 0;
      if (move !== 0) {
        event.preventDefault();
        const all = [...(body.current?.querySelectorAll<HTMLTableRowElement>("tr[data-row]") ?? [])];
        const target = all[all.indexOf(event.currentTarget) + move];
        target?.focus();
        // Shift with an arrow selects the row left and the row reached: a range grows as the focus moves.
        if (event.shiftKey && target?.dataset.id) selectRef.current?.([id, target.dataset.id], true);
      } else if (event.key === " " && selectRef.current) {
        event.preventDefault();
        selectRef.current([id], !isSelected);
      } else if (event.key === "Enter" && href) {
        open(href);
      }
    },
    [open],
  );

  // A checkbox's change goes through the engine once it is here (shift+click selects the range from the last row
  // clicked); before, it selects or clears its own row.
  const onToggle = useCallback(
    (id: string, event: ChangeEvent<HTMLInputElement>) => {
      const row = table?.getCoreRowModel().rowsById[id];
      if (row) row.getToggleSelectedHandler()(event);
      else selectRef.current?.([id], event.target.checked);
    },
    [table],
  );

  const ids = useMemo(() => definitions.map((definition) => definition.id!), [definitions]);
  const visibleIds = table ? table.getVisibleLeafColumns().map((column) => column.id) : shownColumns(ids, order, layout.visibility);
  const columnsKey = visibleIds.join(" ");
  const shown = useMemo(() => columnsKey.split(" ").filter(Boolean), [columnsKey]);
  const aligns = useMemo(() => Object.fromEntries(columns.map((column) => [column.id, column.align])), [columns]);
  const pins = useMemo(() => Object.fromEntries(pinned.map((id, index) => [id, index])), [pinned]);
  const byId = useMemo(() => new Map(columns.map((column) => [column.id, column])), [columns]);
  const renderCell = useCallback((column: string, row: Row) => byId.get(column)?.cell(row), [byId]);
  const engineRows = table?.getRowModel().rows;
  const allSelected = table ? table.getIsAllPageRowsSelected() : rows.length > 0 && rows.every((row) => selected[rowId(row)] === true);
  const someSelected = table ? table.getIsSomePageRowsSelected() : rows.some((row) => selected[rowId(row)] === true);
  const onPageToggle = (event: ChangeEvent<HTMLInputElement>) => {
    if (table) table.getToggleAllPageRowsSelectedHandler()(event);
    else select?.(rows.map(rowId), event.target.checked);
  };

  // The table scrolls inside its own box (both ways), so the page never scrolls sideways; the header row and the
  // pinned columns (checkbox, id) stay in view while it does.
  return (
    <div
      ref={box}
      data-testid="table-scroll"
      className="relative max-h-[calc(100dvh-9rem)] min-h-40 scroll-mt-2 overflow-auto overscroll-x-contain rounded-md border border-line bg-surface"
    >
      <table
        className="min-w-full border-separate border-spacing-0 text-sm [&_[data-pin='0']]:left-0 [&_[data-pin='0']>input]:size-4 [&_[data-pin='0']>input]:cursor-pointer [&_[data-pin='0']>input]:align-middle [&_[data-pin='0']>input]:accent-accent [&_[data-pin='1']]:left-9 [&_[data-pin]]:sticky [&_td]:border-b [&_td]:border-line [&_td]:px-2.5 [&_td.num]:text-right [&_td.num]:tabular-nums [&_td.sized]:overflow-hidden [&_td.sized]:text-ellipsis [&_td[data-pin]]:z-10 [&_th[data-pin]]:z-30 [&_tr[data-row]]:cursor-pointer [&_tr[data-row]:focus-visible]:outline-offset-[-2px] [&_tr[data-row]:focus>td]:bg-surface-2 [&_tr[data-row]:hover>td]:bg-surface-2 [&_tr[data-row]:last-child>td]:border-b-0 [&_tr[data-row]>td]:bg-surface [&_tr[data-row]>td]:py-1.5 [&_tr[data-row]>td]:align-top [&_tr[data-row]>td]:whitespace-nowrap [&_tr[data-selected]>td]:bg-accent/10 [&_tr[data-skeleton]>td]:bg-surface [&_tr[data-skeleton]>td]:py-2 [&_tr[data-static]]:cursor-auto"
        data-testid={testId}
        aria-rowcount={-1}
        aria-busy={stale || loadingRows > 0 || undefined}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 z-20">
          <tr>
            {shown.map((id) => {
              if (id === selectColumnId)
                return (
                  <th key={id} scope="col" data-pin={pins[id]} className="w-9 min-w-9 border-b border-line bg-surface-2 px-2.5 py-1.5 text-left">
                    <PageCheckbox all={allSelected} some={someSelected} onChange={onPageToggle} />
                  </th>
                );
              const definition = byId.get(id)!;
              return (
                <HeaderCell
                  key={id}
                  label={definition.header}
                  align={definition.align}
                  pin={pins[id]}
                  width={layout.widths[id]}
                  sort={sortedBy?.column === id ? (sortedBy.descending ? "descending" : "ascending") : undefined}
                  menu={headerMenu?.(definition)}
                  onWidthChange={onWidthChange && ((width) => onWidthChange(id, width))}
                />
              );
            })}
          </tr>
        </thead>
        {/* Dimmed only once a wait is long enough to notice (the fade starts after 150 ms), and clear again at once: a fade
            back in kept the new rows half painted for 150 ms, and every frame of a fade re-rasters the whole table. */}
        <tbody ref={body} className={stale ? "opacity-50 transition-opacity delay-150 duration-150" : undefined} data-stale={stale || undefined}>
          {loadingRows > 0
            ? Array.from({ length: loadingRows }, (_, index) => (
                <tr key={index} data-skeleton>
                  {shown.map((id) => (
                    <td key={id}>
                      <span className="block h-3 animate-pulse rounded bg-surface-2" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row, index) => {
                const id = engineRows?.[index]?.id ?? rowId(row);
                return (
                  <DataRow
                    key={id}
                    id={id}
                    original={row}
                    engineRow={engineRows?.[index]}
                    columns={shown}
                    columnsKey={columnsKey}
                    renderCell={renderCell}
                    href={rowHref?.(row)}
                    attributesOf={rowAttributes}
                    rowIndex={firstRowNumber + index}
                    first={index === 0}
                    selected={selected[id] === true}
                    aligns={aligns}
                    pins={pins}
                    widths={layout.widths}
                    onOpen={open}
                    onToggle={onToggle}
                    onKeyDown={onRowKeyDown}
                  />
                );
              })}
          {loadingRows === 0 && rows.length === 0 ? (
            <tr>
              <td colSpan={shown.length} className="py-8 text-sm text-muted">
                {/* Kept at the box's left edge and no wider than a phone's window: the headers may make the table
                    wider than the box, and a message centred across all of it would start past the edge. */}
                <div className="sticky left-0 max-w-[calc(100vw-4rem)] text-center">{empty}</div>
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
