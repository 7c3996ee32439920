"use client";

import type { ColumnLayout } from "@/components/ui/data-table";
import { movedColumn, orderedKeys } from "@/lib/views/layout";

const control =
  "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-40";
const step = "rounded px-1 text-xs hover:bg-surface-2 disabled:opacity-30";

/**
 * The list's "Columns" menu: each column shown or hidden and moved earlier or later (the id stays first), and the
 * arrangement reset to the list's own. Widths are set on the headers themselves.
 */
export function ColumnMenu({
  columns,
  layout,
  onChange,
  onReset,
}: {
  columns: { key: string; label: string }[];
  layout: ColumnLayout;
  onChange(next: ColumnLayout): void;
  onReset(): void;
}) {
  const keys = orderedKeys(columns, layout.order);
  const labels = Object.fromEntries(columns.map((column) => [column.key, column.label]));
  return (
    <details className="relative">
      <summary className={`${control} cursor-pointer list-none`}>Columns</summary>
      <fieldset className="absolute right-0 z-40 mt-1 w-64 rounded-md border border-line bg-surface p-2 shadow-lg">
        <legend className="sr-only">Columns shown and their order</legend>
        <ol>
          {keys.slice(1).map((key, index) => (
            <li key={key} className="flex items-center gap-2 py-0.5 text-xs" data-testid="column-choice">
              <label className="flex flex-1 items-center gap-2">
                <input
                  type="checkbox"
                  checked={layout.visibility[key] !== false}
                  onChange={(event) => onChange({ ...layout, visibility: { ...layout.visibility, [key]: event.target.checked } })}
                />
                {labels[key]}
              </label>
              <button
                type="button"
                className={step}
                aria-label={`Move ${labels[key]} earlier`}
                disabled={index === 0}
                onClick={() => onChange(movedColumn(columns, layout, key, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                className={step}
                aria-label={`Move ${labels[key]} later`}
                disabled={index === keys.length - 2}
                onClick={() => onChange(movedColumn(columns, layout, key, 1))}
              >
                ↓
              </button>
            </li>
          ))}
        </ol>
        <button type="button" className={`${control} mt-2 w-full`} onClick={onReset}>
          Reset columns
        </button>
      </fieldset>
    </details>
  );
}
