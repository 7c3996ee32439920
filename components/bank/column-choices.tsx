"use client";

import type { ColumnLayout } from "@/components/ui/data-table";
import { movedColumn, orderedKeys } from "@/lib/views/layout";

const step = "rounded px-1 text-xs hover:bg-surface-2 disabled:opacity-30";

export interface ColumnChoicesProps {
  columns: { key: string; label: string }[];
  layout: ColumnLayout;
  onChange(next: ColumnLayout): void;
}

/** The "Columns" menu's list, its own chunk loaded when the menu first opens (components/bank/column-menu.tsx). */
export function ColumnChoices({ columns, layout, onChange }: ColumnChoicesProps) {
  const keys = orderedKeys(columns, layout.order);
  const labels = Object.fromEntries(columns.map((column) => [column.key, column.label]));
  return (
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
  );
}
