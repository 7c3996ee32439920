"use client";

import type { ChangeEvent } from "react";

// Styled by the table (`[&_[data-pin='0']>input]:...` in ./index.tsx), once: not the same classes on each row's checkbox.

/** A row's checkbox: a click selects or clears it, shift+click everything from the last row clicked (the engine's range). */
export function RowCheckbox({ label, checked, onChange }: { label: string; checked: boolean; onChange(event: ChangeEvent<HTMLInputElement>): void }) {
  return <input type="checkbox" aria-label={label} checked={checked} onChange={onChange} />;
}

/** The header's checkbox: every row of this page, checked when all are, mixed when some are. */
export function PageCheckbox({ all, some, onChange }: { all: boolean; some: boolean; onChange(event: ChangeEvent<HTMLInputElement>): void }) {
  return (
    <input
      type="checkbox"
      aria-label="Select every row on this page"
      checked={all}
      ref={(element) => {
        if (element) element.indeterminate = some && !all;
      }}
      onChange={onChange}
    />
  );
}
