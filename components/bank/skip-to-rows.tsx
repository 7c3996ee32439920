"use client";

import type { KeyboardEvent, MouseEvent } from "react";

/** Focuses the first row of the list the element is in (its `section`); false when the list shows none. */
function focusFirstRow(from: HTMLElement): boolean {
  const row = from.closest("section")?.querySelector<HTMLElement>("tr[data-row]");
  row?.focus();
  return Boolean(row);
}

/**
 * "Skip to rows", right after a list's filters: one key from the filters to the first row (the rows' own keys take it
 * from there), instead of a Tab through every chip and toolbar button. Shown when focused.
 */
export function SkipToRows() {
  return (
    <a
      href="#rows"
      data-testid="skip-to-rows"
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        event.preventDefault();
        focusFirstRow(event.currentTarget);
      }}
      className="sr-only rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium focus:not-sr-only"
    >
      Skip to rows
    </a>
  );
}

/** `j` on a filter control that takes no typing (a button, a box) goes to the first row, as `j` moves down the rows. */
export function jumpToRowsOnJ(event: KeyboardEvent<HTMLFormElement>) {
  const target = event.target as HTMLElement;
  const typing = target instanceof HTMLInputElement ? !["checkbox", "radio"].includes(target.type) : target instanceof HTMLSelectElement;
  if (event.key !== "j" || event.altKey || event.ctrlKey || event.metaKey || typing) return;
  if (focusFirstRow(target)) event.preventDefault();
}
