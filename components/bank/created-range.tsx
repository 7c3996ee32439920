"use client";

import { useState, type KeyboardEvent } from "react";
import { lazyComponent } from "@/components/ui/lazy-component";
import type { CreatedRangeFieldsProps } from "./created-range-fields";

const control = "block w-full rounded border border-line bg-surface px-2 py-1 text-xs text-fg";

// The popover's fields load when it first opens (most visits to a list never pick dates), started on the way to it.
const CreatedRangeFields = lazyComponent<CreatedRangeFieldsProps>(
  () => import("./created-range-fields").then((module) => module.CreatedRangeFields),
  {
    fallback: <p className="absolute left-0 z-40 mt-1 w-64 rounded-md border border-line bg-surface p-2 text-xs text-muted shadow-lg">Loading…</p>,
  },
);

/**
 * The creation dates of a list as one control: a button saying the range in use ("Created: from Nov 1, 2026 (UTC)")
 * that opens a popover with the range's fields and one Apply (./created-range-fields.tsx), inside the filter form
 * around it, which applies them with its other filters: the bank's own (`from_date`, `to_date`), the one Created
 * control of a list (the index's filters offer their presets beside it, ./index-filter-bar.tsx). Until it is first
 * opened its fields are hidden inputs with the URL's values, so the form applies them unchanged. Escape closes it and
 * gives the focus back to its button.
 */
export function CreatedRange({
  words,
  testId,
  width = "w-48",
  ...fields
}: CreatedRangeFieldsProps & { words: string; testId: string; width?: string }) {
  const [opened, setOpened] = useState(false);
  function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
    if (event.key !== "Escape" || !event.currentTarget.open) return;
    event.preventDefault();
    event.currentTarget.open = false;
    event.currentTarget.querySelector("summary")?.focus();
  }
  return (
    <details
      className={`relative ${width}`}
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
      onKeyDown={closeOnEscape}
      data-testid={`${testId}-range`}
    >
      <summary
        data-testid={testId}
        className={`${control} cursor-pointer list-none truncate`}
        onPointerEnter={CreatedRangeFields.preload}
        onFocus={CreatedRangeFields.preload}
      >
        Created: {words}
      </summary>
      {opened ? (
        <CreatedRangeFields {...fields} />
      ) : (
        fields.ends.map((field) => <input key={field.name} type="hidden" name={field.name} value={field.value} />)
      )}
    </details>
  );
}
