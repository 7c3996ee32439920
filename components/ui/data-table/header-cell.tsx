"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { columnWidthBounds } from "./features";

/**
 * One column's header cell: its label, the menu its owner gives it (sorting), `aria-sort` when the list is in its
 * order, and a handle to set its width by pointer or by keyboard (arrows by 16 px, Delete back to its content's width).
 */
export function HeaderCell({
  label,
  align,
  pin,
  width,
  sort,
  menu,
  onWidthChange,
}: {
  label: string;
  align?: "left" | "right";
  pin?: number;
  width?: number;
  sort?: "ascending" | "descending";
  menu?: ReactNode;
  onWidthChange?(width: number | undefined): void;
}) {
  const cell = useRef<HTMLTableCellElement>(null);
  // The width a column shows without a set one is its content's, known once laid out (the handle's value).
  const [measured, setMeasured] = useState<number>(columnWidthBounds.min);
  useEffect(() => {
    if (cell.current) setMeasured(Math.round(cell.current.getBoundingClientRect().width));
  }, [width]);
  const clamp = (value: number) => Math.round(Math.min(columnWidthBounds.max, Math.max(columnWidthBounds.min, value)));
  const shownWidth = () => width ?? cell.current?.getBoundingClientRect().width ?? columnWidthBounds.min;
  return (
    <th
      ref={cell}
      scope="col"
      // Named by its label alone: the width handle's name is not part of the column's.
      aria-label={label}
      aria-sort={sort}
      data-pin={pin}
      style={width ? { width, minWidth: width, maxWidth: width } : undefined}
      className={`relative border-b border-line bg-surface-2 px-2.5 py-1.5 text-[11px] font-semibold tracking-wide whitespace-nowrap text-muted uppercase ${align === "right" ? "text-right" : "text-left"}`}
    >
      {menu ?? label}
      {onWidthChange ? (
        <span
          role="separator"
          aria-orientation="vertical"
          aria-label={`Width of ${label}`}
          aria-valuenow={width ?? measured}
          aria-valuemin={columnWidthBounds.min}
          aria-valuemax={columnWidthBounds.max}
          tabIndex={0}
          data-testid="column-resize"
          className="absolute inset-y-0 right-0 w-2 cursor-col-resize touch-none select-none hover:bg-accent/40 focus-visible:bg-accent/60"
          onPointerDown={(event) => {
            event.preventDefault();
            const handle = event.currentTarget;
            handle.setPointerCapture(event.pointerId);
            const startX = event.clientX;
            const startWidth = shownWidth();
            const move = (moved: PointerEvent) => onWidthChange(clamp(startWidth + moved.clientX - startX));
            const end = () => {
              handle.removeEventListener("pointermove", move);
              handle.removeEventListener("pointerup", end);
              handle.removeEventListener("pointercancel", end);
            };
            handle.addEventListener("pointermove", move);
            handle.addEventListener("pointerup", end);
            handle.addEventListener("pointercancel", end);
          }}
          onDoubleClick={() => onWidthChange(undefined)}
          onKeyDown={(event) => {
            const step = event.key === "ArrowRight" ? 16 : event.key === "ArrowLeft" ? -16 : 0;
            if (step !== 0) onWidthChange(clamp(shownWidth() + step));
            else if (event.key === "Delete" || event.key === "Backspace") onWidthChange(undefined);
            else return;
            event.preventDefault();
          }}
        />
      ) : null}
    </th>
  );
}
