"use client";

import { useState, type FormEvent } from "react";
import type { FilterControl } from "@/lib/resources/filters";

const control = "block w-full rounded border border-line bg-surface px-2 py-1 text-xs text-fg";

/** A filter's current value in words, for the empty state ("status = returned"). */
export function describeFilters(filters: FilterControl[], query: Record<string, string>): string {
  return filters
    .filter((filter) => query[filter.name])
    .map((filter) => `${filter.label.toLowerCase()} = ${query[filter.name]}`)
    .join(", ");
}

/** Filters shown in the bar's one row: choices and dates. Id and text filters wait behind "More filters". */
export const isPrimaryFilter = (filter: FilterControl) => filter.kind !== "text";

/**
 * Every filter the bank offers for this list, as the right control. Applying replaces the filters in the URL (and
 * starts again at the first page); an id that lacks its prefix is refused here, before any request. Compact: one row
 * of choices and dates; the id and text filters (and the index's filters, which the list shows below) open with
 * "More filters", which counts those in use.
 */
export function FilterBar({
  filters,
  query,
  onApply,
  expanded,
  onToggle,
  moreInUse = 0,
}: {
  filters: FilterControl[];
  query: Record<string, string>;
  onApply(values: Record<string, string>): void;
  /** Whether the secondary filters are shown. */
  expanded: boolean;
  onToggle(): void;
  /** Secondary filters in use (counted on the button while they are hidden). */
  moreInUse?: number;
}) {
  const [problems, setProblems] = useState<Record<string, string>>({});
  if (filters.length === 0) return null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values: Record<string, string> = {};
    const found: Record<string, string> = {};
    for (const filter of filters) {
      const value = String(form.get(filter.name) ?? "").trim();
      values[filter.name] = value;
      if (value && filter.kind === "text" && filter.idPrefix && !value.startsWith(filter.idPrefix)) {
        found[filter.name] = `${filter.label} ids start with ${filter.idPrefix}`;
      }
    }
    setProblems(found);
    if (Object.keys(found).length === 0) onApply(values);
  }

  return (
    // The key resets the uncontrolled inputs whenever the URL's filters change (back button, clear, a pasted link).
    <form
      key={JSON.stringify(query)}
      onSubmit={submit}
      aria-label="Filters"
      className="mb-3 flex flex-wrap items-end gap-2 rounded-md border border-line bg-surface p-2"
    >
      {[...filters.filter(isPrimaryFilter), ...filters.filter((filter) => !isPrimaryFilter(filter))].map((filter) => {
        const id = `filter-${filter.name}`;
        const problem = problems[filter.name];
        // A hidden filter stays in the form, so applying keeps its value.
        return (
          <div key={filter.name} className="w-[calc(50%-0.25rem)] sm:w-36" hidden={!isPrimaryFilter(filter) && !expanded && !problem}>
            <label htmlFor={id} className="mb-0.5 block text-[11px] font-medium text-muted">
              {filter.label}
            </label>
            {filter.kind === "select" || filter.kind === "boolean" ? (
              <select
                id={id}
                name={filter.name}
                defaultValue={query[filter.name] ?? ""}
                className={control}
                onChange={(event) => event.currentTarget.form?.requestSubmit()}
              >
                <option value="">any</option>
                {(filter.kind === "boolean" ? ["true", "false"] : filter.options).map((option) => (
                  <option key={option} value={option}>
                    {filter.kind === "boolean" ? (option === "true" ? "yes" : "no") : option.replaceAll("_", " ")}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                name={filter.name}
                type={filter.kind === "date" ? "date" : "text"}
                defaultValue={query[filter.name] ?? ""}
                placeholder={filter.kind === "text" ? (filter.idPrefix ? `${filter.idPrefix}…` : filter.hint) : undefined}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
                spellCheck={false}
                className={`${control} ${filter.kind === "text" ? "font-mono" : ""}`}
              />
            )}
            {problem ? (
              <p id={`${id}-problem`} className="mt-0.5 text-[11px] text-red-700 dark:text-red-300">
                {problem}
              </p>
            ) : null}
          </div>
        );
      })}
      <button
        type="button"
        aria-expanded={expanded}
        data-testid="more-filters"
        onClick={onToggle}
        className="rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2"
      >
        {expanded ? "Fewer filters" : moreInUse > 0 ? `More filters (${moreInUse})` : "More filters"}
      </button>
      <button type="submit" className="rounded border border-line bg-accent px-2.5 py-1 text-xs font-medium text-accent-fg hover:opacity-90">
        Apply
      </button>
    </form>
  );
}
