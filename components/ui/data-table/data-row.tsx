"use client";

import { FlexRender, type Row as EngineRow, type RowData } from "@tanstack/react-table";
import { memo, type KeyboardEvent, type ReactNode } from "react";
import type { GridFeatures, RowAttributes } from "./features";

export interface DataRowProps<Row extends RowData> {
  row: EngineRow<GridFeatures, Row>;
  /** The shown columns' ids in order: the row renders again when they change. */
  columnsKey: string;
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
  onKeyDown(event: KeyboardEvent<HTMLTableRowElement>, row: EngineRow<GridFeatures, Row>, href: string | undefined): void;
}

/**
 * One row, rendered again only when its object, place, selection or columns change: a filter or page change
 * re-renders the list with the previous rows while the new ones load, and re-rendering 50 unchanged rows was most of
 * the ~90 ms React held the main thread between a filter change and the request's answer (docs/benchmarks.md, pages).
 */
export const DataRow = memo(function DataRow<Row extends RowData>({
  row,
  href,
  attributesOf,
  rowIndex,
  first,
  selected,
  aligns,
  pins,
  widths,
  onOpen,
  onKeyDown,
}: DataRowProps<Row>) {
  const cells = row.getVisibleCells();
  return (
    <tr
      data-row
      data-id={row.id}
      data-testid="bank-row"
      data-static={href ? undefined : true}
      {...attributesOf?.(row.original)}
      tabIndex={0}
      aria-rowindex={rowIndex}
      data-selected={selected || undefined}
      onKeyDown={(event) => onKeyDown(event, row, href)}
      onClick={(event) => {
        if (href && !(event.target as HTMLElement).closest("a,button,input,label,select,textarea,summary")) onOpen(href);
      }}
    >
      {cells.map((cell, cellIndex) => {
        const id = cell.column.id;
        const width = widths[id];
        return (
          <td
            key={id}
            data-pin={pins[id]}
            className={`${aligns[id] === "right" ? "num" : ""}${width ? "sized" : ""}` || undefined}
            style={width ? { width, minWidth: width, maxWidth: width } : undefined}
            elementtiming={first && cellIndex === (pins.select === 0 ? 1 : 0) ? "first-row" : undefined}
          >
            <FlexRender cell={cell} />
          </td>
        );
      })}
    </tr>
  );
}) as <Row extends RowData>(props: DataRowProps<Row>) => ReactNode;
