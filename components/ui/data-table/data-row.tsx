"use client";

import type { Row as EngineRow, RowData } from "@tanstack/react-table";
import { memo, type ChangeEvent, type KeyboardEvent, type ReactNode } from "react";
import type { GridFeatures } from "./engine";
import { selectColumnId, type RowAttributes } from "./features";
import { RowCheckbox } from "./selection";

export interface DataRowProps<Row extends RowData> {
  id: string;
  original: Row;
  /** The engine's row once the engine has loaded (its cells then come from it); before, `columns` says which are shown. */
  engineRow: EngineRow<GridFeatures, Row> | undefined;
  /** The shown columns' ids in order. */
  columns: readonly string[];
  /** The same ids as one string: the row renders again when they change. */
  columnsKey: string;
  /** A data column's content for a row (a stable function). */
  renderCell(column: string, row: Row): ReactNode;
  /** Where the row opens; a row without one is not a link (its cells hold their own links and controls). */
  href: string | undefined;
  /** The row's own `data-` attributes (test ids, states), in place of the list's `data-testid="bank-row"`. */
  attributesOf: ((row: Row) => RowAttributes) | undefined;
  rowIndex: number;
  first: boolean;
  selected: boolean;
  aligns: Readonly<Record<string, "left" | "right" | undefined>>;
  pins: Readonly<Record<string, number>>;
  widths: Readonly<Record<string, number>>;
  onOpen(href: string): void;
  onToggle(id: string, event: ChangeEvent<HTMLInputElement>): void;
  onKeyDown(event: KeyboardEvent<HTMLTableRowElement>, id: string, selected: boolean, href: string | undefined): void;
}

/**
 * One row, rendered again only when its object, place, selection or columns change: a filter or page change
 * re-renders the list with the previous rows while the new ones load, and re-rendering 50 unchanged rows was most of
 * the ~90 ms React held the main thread between a filter change and the request's answer (docs/benchmarks.md, pages).
 * Its cells are the same elements with the engine or without it, so the engine arriving after hydration changes no DOM.
 */
export const DataRow = memo(function DataRow<Row extends RowData>({
  id,
  original,
  engineRow,
  columns,
  renderCell,
  href,
  attributesOf,
  rowIndex,
  first,
  selected,
  aligns,
  pins,
  widths,
  onOpen,
  onToggle,
  onKeyDown,
}: DataRowProps<Row>) {
  const content = (column: string, data: () => ReactNode) =>
    column === selectColumnId ? <RowCheckbox label={`Select ${id}`} checked={selected} onChange={(event) => onToggle(id, event)} /> : data();
  const cells: Array<[string, ReactNode]> = engineRow
    ? engineRow.getVisibleCells().map((cell) => {
        const render = cell.column.columnDef.cell as (context: ReturnType<typeof cell.getContext>) => ReactNode;
        return [cell.column.id, content(cell.column.id, () => render(cell.getContext()))];
      })
    : columns.map((column) => [column, content(column, () => renderCell(column, original))]);
  return (
    <tr
      data-row
      data-id={id}
      data-testid="bank-row"
      data-static={href ? undefined : true}
      {...attributesOf?.(original)}
      tabIndex={0}
      aria-rowindex={rowIndex}
      data-selected={selected || undefined}
      onKeyDown={(event) => onKeyDown(event, id, selected, href)}
      onClick={(event) => {
        if (href && !(event.target as HTMLElement).closest("a,button,input,label,select,textarea,summary")) onOpen(href);
      }}
    >
      {cells.map(([column, cell], cellIndex) => {
        const width = widths[column];
        return (
          <td
            key={column}
            data-pin={pins[column]}
            className={[aligns[column] === "right" && "num", width && "sized"].filter(Boolean).join(" ") || undefined}
            style={width ? { width, minWidth: width, maxWidth: width } : undefined}
            elementtiming={first && cellIndex === (pins.select === 0 ? 1 : 0) ? "first-row" : undefined}
          >
            {cell}
          </td>
        );
      })}
    </tr>
  );
}) as <Row extends RowData>(props: DataRowProps<Row>) => ReactNode;
