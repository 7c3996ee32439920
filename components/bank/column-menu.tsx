"use client";

import { useState } from "react";
import { lazyComponent } from "@/components/ui/lazy-component";
import type { ColumnChoicesProps } from "./column-choices";

const control =
  "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-40";

// The menu's list loads when it first opens (most visits never open it), started on the way to the button.
const ColumnChoices = lazyComponent<ColumnChoicesProps>(() => import("./column-choices").then((module) => module.ColumnChoices), {
  fallback: <p className="py-1 text-xs text-muted">Loading the columns…</p>,
});

/**
 * The list's "Columns" menu: each column shown or hidden and moved earlier or later (the id stays first), and the
 * arrangement reset to the list's own. Widths are set on the headers themselves.
 */
export function ColumnMenu({ onReset, ...choices }: ColumnChoicesProps & { onReset(): void }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="relative" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary
        className={`${control} cursor-pointer list-none whitespace-nowrap`}
        onPointerEnter={ColumnChoices.preload}
        onFocus={ColumnChoices.preload}
      >
        Columns
      </summary>
      <fieldset className="absolute right-0 z-40 mt-1 w-64 rounded-md border border-line bg-surface p-2 shadow-lg">
        <legend className="sr-only">Columns shown and their order</legend>
        {open ? <ColumnChoices {...choices} /> : null}
        <button type="button" className={`${control} mt-2 w-full`} onClick={onReset}>
          Reset columns
        </button>
      </fieldset>
    </details>
  );
}
