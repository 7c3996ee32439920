import { fetchConsole } from "@/lib/bank/browser";
import type { NameTarget } from "@/lib/search/name-filter";
import type { NameChoice } from "@/lib/search/resolve-names";

/*
 * Names typed into id filters (components/bank/filter-bar.tsx): looked up through the search (`GET
 * /api/search/names`), and the objects a name may mean listed to pick one. Its own module, loaded when a name is first
 * applied, so a list's first load carries neither the lookup nor the list.
 */

/** An id filter that takes a name (lib/resources/filters.ts). */
export interface NamedFilter {
  name: string;
  label: string;
  names: NameTarget;
}

/** The filters' values as typed, and per filter a name that means several objects, to pick one. */
export interface PendingNames {
  values: Record<string, string>;
  choices: Record<string, { label: string; text: string; choices: NameChoice[] }>;
}

/** The ids a name typed into an id filter may mean, best first. */
export async function resolveFilterName(target: NameTarget, text: string): Promise<NameChoice[]> {
  const answer = await fetchConsole<{ data: NameChoice[] }>(`/api/search/names?${new URLSearchParams({ for: target, q: text })}`);
  return answer.data;
}

/**
 * Each filter's name looked up: a name meaning one object becomes its id in `values`; one meaning none is a problem
 * named for its filter; one meaning several is left to pick (`pending`). A failed lookup is a problem for each filter.
 */
export async function resolveNamedFilters(
  filters: NamedFilter[],
  typed: Record<string, string>,
): Promise<{ values: Record<string, string>; problems: Record<string, string>; pending: PendingNames | null }> {
  const values = { ...typed };
  const problems: Record<string, string> = {};
  const several: PendingNames["choices"] = {};
  try {
    for (const filter of filters) {
      const text = values[filter.name]!;
      const choices = await resolveFilterName(filter.names, text);
      if (choices.length === 1) values[filter.name] = choices[0]!.id;
      else if (choices.length === 0) problems[filter.name] = `No ${filter.label.toLowerCase()} named “${text}” in the console's index`;
      else several[filter.name] = { label: filter.label, text, choices };
    }
  } catch (error) {
    for (const filter of filters) problems[filter.name] = `The name could not be looked up: ${(error as Error).message}`;
    return { values, problems, pending: null };
  }
  const pending = Object.keys(problems).length === 0 && Object.keys(several).length > 0 ? { values, choices: several } : null;
  return { values, problems, pending };
}

/** A choice made among the objects a name may mean: the values to apply when no other name waits, else what still does. */
export function chooseName(pending: PendingNames, name: string, id: string): { apply: Record<string, string> } | { pending: PendingNames } {
  const values = { ...pending.values, [name]: id };
  const others = Object.fromEntries(Object.entries(pending.choices).filter(([other]) => other !== name));
  return Object.keys(others).length > 0 ? { pending: { values, choices: others } } : { apply: values };
}

/** The objects each typed name may mean, best first, each with its name, id and what the search matched, to pick one. */
export function NameChoices({ pending, onChoose }: { pending: PendingNames; onChoose(name: string, id: string): void }) {
  return Object.entries(pending.choices).map(([name, { label, text, choices }]) => (
    <fieldset key={name} data-testid="name-choices" className="w-full rounded border border-line bg-surface-2 p-2 text-xs">
      <legend className="px-1 font-medium">
        {label} “{text}”: {choices.length} match in the console&apos;s index, pick one
      </legend>
      <ul className="flex flex-col gap-1">
        {choices.map((choice) => (
          <li key={choice.id}>
            <button
              type="button"
              onClick={() => onChoose(name, choice.id)}
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
  ));
}
