"use client";

import type { MouseEvent } from "react";

const control = "block w-full rounded border border-line bg-surface px-2 py-1 text-xs text-fg";

/** One field of the popover, named as the URL names it, shown with the URL's value. */
export interface RangeField {
  name: string;
  label: string;
  value: string;
}

export interface CreatedRangeFieldsProps {
  /** Read by a screen reader as the popover's name ("Created (UTC)"). */
  legend: string;
  /** The range's two days, typed or picked as dates. */
  ends: readonly [RangeField, RangeField];
}

/**
 * The body of the creation dates popover (./created-range.tsx): its fields and its one Apply, which submits the form
 * around it. Its own chunk, loaded when the popover first opens. Apply also folds the popover: its fields stay in the
 * form (a closed `details` keeps its inputs), so the form reads them as they were typed.
 */
export function CreatedRangeFields({ legend, ends }: CreatedRangeFieldsProps) {
  const fold = (event: MouseEvent<HTMLButtonElement>) => {
    const details = event.currentTarget.closest("details");
    details?.removeAttribute("open");
    details?.querySelector("summary")?.focus();
  };
  return (
    <fieldset className="absolute left-0 z-40 mt-1 flex w-64 flex-col gap-2 rounded-md border border-line bg-surface p-2 shadow-lg">
      <legend className="sr-only">{legend}</legend>
      <div className="flex gap-2">
        {ends.map((end) => (
          <div key={end.name} className="w-full">
            <label htmlFor={`filter-${end.name}`} className="mb-0.5 block text-[11px] font-medium text-muted">
              {end.label}
            </label>
            <input id={`filter-${end.name}`} name={end.name} type="date" defaultValue={end.value} className={control} />
          </div>
        ))}
      </div>
      <button
        type="submit"
        onClick={fold}
        className="self-end rounded border border-line bg-accent px-2.5 py-1 text-xs font-medium text-accent-fg hover:brightness-110"
      >
        Apply dates
      </button>
    </fieldset>
  );
}
