"use client";

import { useState, type FormEvent } from "react";
import type { FilterControl } from "@/lib/resources/filters";
import type { NameChoice } from "@/lib/search/resolve-names";
import { NameBeside } from "./name-beside";
import { jumpToRowsOnJ, SkipToRows } from "./skip-to-rows";

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

type TextFilter = Extract<FilterControl, { kind: "text" }>;
/** An id filter that takes a name too (lib/resources/filters.ts). */
const takesNames = (filter: FilterControl): filter is TextFilter & { idPrefix: string } =>
  filter.kind === "text" && Boolean(filter.names && filter.idPrefix);

/**
 * Every filter the bank offers for this list, as the right control. Applying replaces the filters in the URL (and
 * starts again at the first page); an id that lacks its prefix is refused here, before any request, unless the
 * filter takes a name: then the name is looked up through the search and, when it means one object, its id applied;
 * when several, they are listed to pick from. Compact: one row of choices and dates; the id and text filters (and
 * the index's filters, which the list shows below) open with "More filters", which counts those in use. An id filter
 * in use shows as a chip with the name the index knows beside the id.
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
  // Names that mean several objects: the filter's values as typed, and per filter what the name may mean.
  const [choosing, setChoosing] = useState<{
    values: Record<string, string>;
    choices: Record<string, { text: string; choices: NameChoice[] }>;
  } | null>(null);
  const [resolving, setResolving] = useState(false);
  if (filters.length === 0) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values: Record<string, string> = {};
    const found: Record<string, string> = {};
    const names: Array<TextFilter & { idPrefix: string }> = [];
    for (const filter of filters) {
      const value = String(form.get(filter.name) ?? "").trim();
      values[filter.name] = value;
      if (!value || filter.kind !== "text" || !filter.idPrefix || value.startsWith(filter.idPrefix)) continue;
      if (takesNames(filter)) names.push(filter);
      else found[filter.name] = `${filter.label} ids start with ${filter.idPrefix}`;
    }
    setChoosing(null);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    if (names.length === 0) return onApply(values);
    setResolving(true);
    try {
      const { resolveFilterName } = await import("./filter-names");
      const several: Record<string, { text: string; choices: NameChoice[] }> = {};
      for (const filter of names) {
        const text = values[filter.name]!;
        const choices = await resolveFilterName(filter.names!, text);
        if (choices.length === 1) values[filter.name] = choices[0]!.id;
        else if (choices.length === 0) found[filter.name] = `No ${filter.label.toLowerCase()} named “${text}” in the console's index`;
        else several[filter.name] = { text, choices };
      }
      setProblems(found);
      if (Object.keys(found).length > 0) return;
      if (Object.keys(several).length > 0) setChoosing({ values, choices: several });
      else onApply(values);
    } catch (error) {
      setProblems(Object.fromEntries(names.map((filter) => [filter.name, `The name could not be looked up: ${(error as Error).message}`])));
    } finally {
      setResolving(false);
    }
  }

  /** A choice made among the objects a name may mean; the other names still to choose stay listed. */
  function choose(name: string, id: string) {
    if (!choosing) return;
    const values = { ...choosing.values, [name]: id };
    const others = Object.fromEntries(Object.entries(choosing.choices).filter(([other]) => other !== name));
    if (Object.keys(others).length > 0) return setChoosing({ values, choices: others });
    setChoosing(null);
    onApply(values);
  }
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
      })}
      {choosing
        ? Object.entries(choosing.choices).map(([name, { text, choices }]) => (
            <NameChoices
              key={name}
              label={filters.find((filter) => filter.name === name)!.label}
              text={text}
              choices={choices}
              onChoose={(id) => choose(name, id)}
            />
          ))
        : null}
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

/** The objects a typed name may mean, best first, each with its name, id and what the search matched, to pick one. */
function NameChoices({ label, text, choices, onChoose }: { label: string; text: string; choices: NameChoice[]; onChoose(id: string): void }) {
  return (
    <fieldset data-testid="name-choices" className="w-full rounded border border-line bg-surface-2 p-2 text-xs">
      <legend className="px-1 font-medium">
        {label} “{text}”: {choices.length} match in the console&apos;s index, pick one
      </legend>
      <ul className="flex flex-col gap-1">
        {choices.map((choice) => (
          <li key={choice.id}>
            <button
              type="button"
              onClick={() => onChoose(choice.id)}
              className="rounded border border-line bg-surface px-2 py-0.5 text-left hover:bg-surface-2"
            >
              <span className="font-medium">{choice.name ?? "(no name)"}</span> <span className="font-mono text-muted">{choice.id}</span>
              {choice.via ? <span className="text-muted"> · from {choice.via}</span> : null}
              {choice.matched[0] ? <span className="text-muted"> · matched {choice.matched[0].field.replaceAll("_", " ")}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
