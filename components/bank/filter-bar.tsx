"use client";

import { useState, type FormEvent } from "react";
import type { FilterControl } from "@/lib/resources/filters";
import { CreatedRange } from "./created-range";
import { bankCreatedWords } from "./created-words";
import type * as FilterNames from "./filter-names";
import { NameBeside } from "./name-beside";
import { jumpToRowsOnJ, SkipToRows } from "./skip-to-rows";

const control = "block w-full rounded border border-line bg-surface px-2 py-1 text-xs text-fg";

/** A filter's current value in words, for the empty state ("status = returned, created on Nov 1, 2026 (UTC)"). */
export function describeFilters(filters: FilterControl[], query: Record<string, string>): string {
  const created = bankCreatedWords(query.from_date, query.to_date);
  return [
    ...filters
      .filter((filter) => filter.kind !== "date" && query[filter.name])
      .map((filter) => `${filter.label.toLowerCase()} = ${query[filter.name]}`),
    ...(created ? [`created ${created}`] : []),
  ].join(", ");
}

/** Filters shown in the bar's one row: choices and dates. Id and text filters wait behind "More filters". */
export const isPrimaryFilter = (filter: FilterControl) => filter.kind !== "text";

type TextFilter = Extract<FilterControl, { kind: "text" }>;
/** An id filter that takes a name too (lib/resources/filters.ts). */
const takesNames = (filter: FilterControl): filter is TextFilter & { idPrefix: string } =>
  filter.kind === "text" && Boolean(filter.names && filter.idPrefix);

/**
 * Every filter the bank offers for this list, as the right control. Applying replaces the filters in the URL (and
 * starts again at the first page); an id that lacks its prefix is refused here, before any request, unless the
 * filter takes a name: then the name is looked up through the search and, when it means one object, its id applied;
 * when several, they are listed to pick from (the lookup and the list load then, ./filter-names.tsx). Compact: one row
 * of choices and the creation dates as one control (./created-range.tsx: `from_date` and `to_date` in a popover with
 * one Apply); the id and text filters (and the index's filters, which the list shows below) open with "More filters",
 * which counts those in use. An id filter in use shows as a chip with the name the index knows beside the id.
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
  // Names that mean several objects, with the module that lists them to pick one (loaded with the name lookup).
  const [choosing, setChoosing] = useState<{ names: typeof FilterNames; pending: FilterNames.PendingNames } | null>(null);
  const [resolving, setResolving] = useState(false);
  if (filters.length === 0) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values: Record<string, string> = {};
    const found: Record<string, string> = {};
    const named: Array<TextFilter & { idPrefix: string }> = [];
    for (const filter of filters) {
      const value = String(form.get(filter.name) ?? "").trim();
      values[filter.name] = value;
      if (!value || filter.kind !== "text" || !filter.idPrefix || value.startsWith(filter.idPrefix)) continue;
      if (takesNames(filter)) named.push(filter);
      else found[filter.name] = `${filter.label} ids start with ${filter.idPrefix}`;
    }
    setChoosing(null);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    if (named.length === 0) return onApply(values);
    setResolving(true);
    try {
      const names = await import("./filter-names");
      const resolved = await names.resolveNamedFilters(
        named.map((filter) => ({ name: filter.name, label: filter.label, names: filter.names! })),
        values,
      );
      setProblems(resolved.problems);
      if (Object.keys(resolved.problems).length > 0) return;
      if (resolved.pending) setChoosing({ names, pending: resolved.pending });
      else onApply(resolved.values);
    } catch (error) {
      // The lookup's module did not load (the connection dropped, the console was updated).
      setProblems(Object.fromEntries(named.map((filter) => [filter.name, `The name could not be looked up: ${(error as Error).message}`])));
    } finally {
      setResolving(false);
    }
  }

  /** A choice made among the objects a name may mean; the other names still to choose stay listed. */
  function choose(name: string, id: string) {
    if (!choosing) return;
    const next = choosing.names.chooseName(choosing.pending, name, id);
    if ("pending" in next) return setChoosing({ ...choosing, pending: next.pending });
    setChoosing(null);
    onApply(next.apply);
  }
  // Every bank list has the two (lib/contract/requests.ts); they are its only date filters.
  const hasDates = filters.some((filter) => filter.name === "from_date") && filters.some((filter) => filter.name === "to_date");
  /** One filter's label and control; a hidden filter stays in the form, so applying keeps its value. */
  const field = (filter: FilterControl) => {
    const id = `filter-${filter.name}`;
    const problem = problems[filter.name];
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
            type="text"
            defaultValue={query[filter.name] ?? ""}
            placeholder={
              filter.kind === "text" ? (filter.idPrefix ? `${filter.idPrefix}…${filter.names ? " or a name" : ""}` : filter.hint) : undefined
            }
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
  };
  const idChips = filters.filter((filter) => takesNames(filter) && query[filter.name]);

  return (
    // The key resets the uncontrolled inputs whenever the URL's filters change (back button, clear, a pasted link).
    <form
      key={JSON.stringify(query)}
      onSubmit={(event) => void submit(event)}
      onKeyDown={jumpToRowsOnJ}
      aria-label="Filters"
      className="mb-3 flex flex-wrap items-end gap-2 rounded-md border border-line bg-surface p-2"
    >
      {filters.filter((filter) => isPrimaryFilter(filter) && filter.kind !== "date").map(field)}
      {hasDates ? (
        <CreatedRange
          testId="bank-created-summary"
          // A row of its own on a phone, so its popover opens within the screen.
          width="w-full sm:w-48"
          words={bankCreatedWords(query.from_date, query.to_date) ?? "any time"}
          legend="Created (UTC)"
          ends={[
            { name: "from_date", label: "On or after (UTC)", value: query.from_date ?? "" },
            { name: "to_date", label: "Before (UTC)", value: query.to_date ?? "" },
          ]}
        />
      ) : null}
      {filters.filter((filter) => !isPrimaryFilter(filter)).map(field)}
      {choosing ? <choosing.names.NameChoices pending={choosing.pending} onChoose={choose} /> : null}
      <button
        type="button"
        aria-expanded={expanded}
        data-testid="more-filters"
        onClick={onToggle}
        className="rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2"
      >
        {expanded ? "Fewer filters" : moreInUse > 0 ? `More filters (${moreInUse})` : "More filters"}
      </button>
      <button
        type="submit"
        disabled={resolving}
        className="rounded border border-line bg-accent px-2.5 py-1 text-xs font-medium text-accent-fg hover:brightness-110 disabled:opacity-60"
      >
        {resolving ? "Looking up the name…" : "Apply"}
      </button>
      {idChips.map((filter) => (
        <button
          key={filter.name}
          type="button"
          data-testid="id-filter-chip"
          onClick={() => onApply({ [filter.name]: "" })}
          className="self-center rounded-full border border-line bg-surface px-2 py-0.5 text-xs hover:border-line-strong"
        >
          {/* On the surface colour: the name beside the id is muted text, whose contrast is set against it. */}
          {/* The words read are the words shown (the name arrives after the id), with what a press does first. */}
          <span className="sr-only">Remove filter: </span>
          {filter.label.toLowerCase()} <span className="font-mono">{query[filter.name]}</span>
          <NameBeside id={query[filter.name]!} /> <span aria-hidden="true">×</span>
        </button>
      ))}
      <SkipToRows />
    </form>
  );
}
