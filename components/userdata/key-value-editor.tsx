"use client";

import { Button } from "@/components/ui/button";
import type { KeyValueRow, RowsCheck, ValueKind } from "@/lib/userdata/key-values";

const control =
  "block w-full rounded-md border border-line bg-surface px-2 py-1.5 text-sm focus:border-focus focus:ring-2 focus:ring-focus/40 focus:outline-none disabled:bg-surface-2";

/**
 * Userdata as rows of key, type and value: add, change or remove a key without writing JSON. The draft is the same
 * as the JSON editor's (components/userdata/userdata-editor.tsx writes the rows back to it); each row's problem shows
 * under it.
 */
export function KeyValueEditor({
  rows,
  check,
  disabled,
  onChange,
}: {
  rows: KeyValueRow[];
  check: RowsCheck;
  disabled: boolean;
  onChange(rows: KeyValueRow[]): void;
}) {
  const problemOf = (index: number) => (check.ok ? undefined : check.problems.find((problem) => problem.row === index)?.problem);
  const change = (index: number, patch: Partial<KeyValueRow>) => onChange(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  return (
    <div data-testid="userdata-key-values" className="space-y-2">
      {rows.length === 0 ? <p className="text-sm text-muted">No keys yet.</p> : null}
      <ul className="space-y-2">
        {rows.map((row, index) => {
          const name = row.key.trim() || `key ${index + 1}`;
          const problem = problemOf(index);
          return (
            // Rows have no identity of their own but their place; a removed row shifts the rest, which React follows.
            <li
              key={index}
              data-testid="userdata-row"
              className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 sm:grid-cols-[minmax(0,12rem)_7rem_minmax(0,1fr)_auto]"
            >
              <input
                className={control}
                aria-label={`Key ${index + 1}`}
                value={row.key}
                disabled={disabled}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `userdata-row-${index}-problem` : undefined}
                onChange={(event) => change(index, { key: event.target.value })}
              />
              <select
                className={control}
                aria-label={`Type of ${name}`}
                value={row.kind}
                disabled={disabled}
                onChange={(event) => change(index, { kind: event.target.value as ValueKind })}
              >
                <option value="text">Text</option>
                <option value="json">JSON value</option>
              </select>
              <input
                className={`${control} col-span-2 sm:col-span-1 ${row.kind === "json" ? "font-mono" : ""}`}
                aria-label={`Value of ${name}`}
                value={row.value}
                disabled={disabled}
                onChange={(event) => change(index, { value: event.target.value })}
              />
              <Button
                type="button"
                variant="secondary"
                size="compact"
                className="col-span-2 justify-self-start sm:col-span-1 sm:self-center"
                disabled={disabled}
                aria-label={`Remove ${name}`}
                onClick={() => onChange(rows.filter((_, at) => at !== index))}
              >
                Remove
              </Button>
              {problem ? (
                <p id={`userdata-row-${index}-problem`} role="alert" className="col-span-full text-xs text-red-700 dark:text-red-300">
                  {problem}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <Button
        type="button"
        variant="secondary"
        size="compact"
        disabled={disabled}
        onClick={() => onChange([...rows, { key: "", value: "", kind: "text" }])}
      >
        Add a key
      </Button>
    </div>
  );
}
