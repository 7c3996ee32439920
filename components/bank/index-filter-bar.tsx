"use client";

import { useState, type FormEvent, type InputHTMLAttributes } from "react";
import type { ResourceName } from "@/lib/resources/routes";
import { datePresets, indexFilterNames } from "@/lib/search/index-filters";
import { isNamedKind } from "@/lib/search/name-filter";
import { presetLabels } from "./index-filter-summary";
import { jumpToRowsOnJ, SkipToRows } from "./skip-to-rows";

const control = "block w-full rounded border border-line bg-surface px-2 py-1 text-xs text-fg";

/**
 * Filters the bank's list API cannot express, served from the console's index (docs/search.md): the objects' name
 * (kinds with names), an amount range, several statuses at once, a creation preset, has error. Text applies on
 * Enter, statuses and boxes at once, the preset with Apply.
 */
export function IndexFilterBar({
  resource,
  query,
  statuses,
  hasAmount,
  hasError,
  onApply,
}: {
  resource: ResourceName;
  query: Record<string, string>;
  statuses: string[];
  hasAmount: boolean;
  hasError: boolean;
  onApply(values: Record<string, string | undefined>): void;
}) {
  const chosen = new Set((query.statuses ?? "").split(",").filter(Boolean));
  // The form is drawn anew for each applied filter (its fields show the URL's values): the statuses popover stays
  // open through that, so several statuses can be ticked in a row, as in the Columns menu.
  const [statusesOpen, setStatusesOpen] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    const created = text("created");
    onApply({
      name: text("name"),
      amount_min: text("amount_min"),
      amount_max: text("amount_max"),
      statuses: form.getAll("statuses").map(String).join(",") || undefined,
      created,
      created_from: created === "custom" ? text("created_from") : undefined,
      created_to: created === "custom" ? text("created_to") : undefined,
      has_error: form.get("has_error") ? "true" : undefined,
    });
  }
  const submitNow = (element: HTMLElement) => (element as HTMLInputElement).form?.requestSubmit();

  return (
    <form
      key={JSON.stringify(indexFilterNames.map((name) => query[name]))}
      onSubmit={submit}
      onKeyDown={jumpToRowsOnJ}
      aria-label="Filters from the console's index"
      className="mb-3 flex flex-wrap items-end gap-2 rounded-md border border-dashed border-line bg-surface p-2"
    >
      {isNamedKind(resource) ? (
        <RangeEnd name="name" label="Name" width="w-40" placeholder="any words of the name" defaultValue={query.name ?? ""} />
      ) : null}
      {hasAmount ? (
        <>
          {/* Typed as people write money ($1,234.56), read by the server's amount parser. */}
          {amountEnds.map(({ name, label, placeholder }) => (
            <RangeEnd
              key={name}
              {...{ name, label, placeholder }}
              width="w-28"
              inputMode="decimal"
              className="font-mono"
              defaultValue={query[name] ?? ""}
            />
          ))}
        </>
      ) : null}
      {statuses.length > 0 ? (
        <details className="relative w-40" open={statusesOpen} onToggle={(event) => setStatusesOpen(event.currentTarget.open)}>
          <summary className={`${control} cursor-pointer list-none truncate`}>
            <span className="sr-only">Statuses: </span>
            {chosen.size > 0 ? [...chosen].join(", ") : "Any of several statuses"}
          </summary>
          <fieldset className="absolute left-0 z-40 mt-1 w-52 rounded-md border border-line bg-surface p-2 shadow-lg">
            <legend className="sr-only">Statuses</legend>
            {statuses.map((status) => (
              <label key={status} className="flex items-center gap-2 py-0.5 text-xs">
                <input
                  type="checkbox"
                  name="statuses"
                  value={status}
                  defaultChecked={chosen.has(status)}
                  onChange={(event) => submitNow(event.currentTarget)}
                />
                {status.replaceAll("_", " ")}
              </label>
            ))}
          </fieldset>
        </details>
      ) : null}
      <CreatedWithin query={query} />
      {hasError ? (
        <label className="flex items-center gap-1 pb-1 text-xs">
          <input type="checkbox" name="has_error" defaultChecked={query.has_error === "true"} onChange={(event) => submitNow(event.currentTarget)} />
          Has an error
        </label>
      ) : null}
      <button type="submit" className="rounded border border-line px-2.5 py-1 text-xs font-medium hover:bg-surface-2">
        Apply
      </button>
      <SkipToRows />
    </form>
  );
}

const amountEnds = [
  { name: "amount_min", label: "Amount from", placeholder: "$0.00" },
  { name: "amount_max", label: "Amount to", placeholder: "$1,000.00" },
] as const;

/**
 * The index's creation presets ("today", "last 7 days"), a choice named "Created within" beside the bank's own Created
 * control: every bank list filters by creation day (`from_date`, `to_date` in lib/contract/requests.ts), so the filter
 * bar above always has that one Created control, and the days are picked there. A custom range of the index's
 * (`created=custom`, from a link) stays as it is, with its days, until another choice replaces it.
 */
function CreatedWithin({ query }: { query: Record<string, string> }) {
  const custom = query.created === "custom";
  const options = [
    { value: "", label: "any time" },
    ...datePresets.filter((preset) => preset !== "custom" || custom).map((preset) => ({ value: preset, label: presetLabels[preset] })),
  ];
  return (
    <div className="w-36">
      <label htmlFor="filter-created" className="mb-0.5 block text-[11px] font-medium text-muted">
        Created within
      </label>
      <select id="filter-created" name="created" defaultValue={query.created ?? ""} className={control}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {custom ? (
        <>
          <input type="hidden" name="created_from" value={query.created_from ?? ""} />
          <input type="hidden" name="created_to" value={query.created_to ?? ""} />
        </>
      ) : null}
    </div>
  );
}

/** One end of a range filter (amount): a small label over its input, named as the URL names it. */
function RangeEnd({ label, width, className, ...input }: InputHTMLAttributes<HTMLInputElement> & { name: string; label: string; width: string }) {
  return (
    <div className={width}>
      <label htmlFor={`filter-${input.name}`} className="mb-0.5 block text-[11px] font-medium text-muted">
        {label}
      </label>
      <input id={`filter-${input.name}`} {...input} className={`${control} ${className ?? ""}`} />
    </div>
  );
}
