import { z } from "zod";
import { date, listQueries } from "@/lib/contract";
import { nameTargetOfPrefix, type NameTarget } from "@/lib/search/name-filter";
import { resources, type ResourceName } from "./index";

/**
 * The filter controls of a list, derived from the contract's list query (lib/contract/requests.ts), so a filter the
 * bank adds there appears here with the right control: a select for an enum, true/false for a boolean, a date input
 * for a date, a text box (with the id prefix from the resource definition) for anything else. A filter taking the id
 * of a kind the index knows names for (a counterparty, a card, a person) takes a name too (`names`), resolved to its
 * id through the search (lib/search/resolve-names.ts). Plain data, so the server page can hand it to the client list.
 */
export type FilterControl =
  | { name: string; label: string; kind: "select"; options: string[] }
  | { name: string; label: string; kind: "boolean" }
  | { name: string; label: string; kind: "date" }
  | { name: string; label: string; kind: "text"; idPrefix?: string; hint?: string; names?: NameTarget };

const pagination = new Set(["page_cursor", "page_size"]);

const humanize = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replaceAll("_", " ");

function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
  return inner;
}

export function filterControls(resource: ResourceName): FilterControl[] {
  const overrides = resources[resource].filters ?? {};
  return Object.entries(listQueries[resource].shape)
    .filter(([name]) => !pagination.has(name))
    .map(([name, schema]): FilterControl => {
      const inner = unwrap(schema as z.ZodType);
      const label = overrides[name]?.label ?? (name === "from_date" ? "Created from" : name === "to_date" ? "Created before" : humanize(name));
      if (inner instanceof z.ZodEnum) {
        const options = inner.options.map(String);
        return options.length === 2 && options.includes("true") && options.includes("false")
          ? { name, label, kind: "boolean" }
          : { name, label, kind: "select", options };
      }
      if (inner === date) return { name, label, kind: "date" };
      const idPrefix = overrides[name]?.idPrefix;
      const names = idPrefix ? nameTargetOfPrefix(idPrefix) : undefined;
      return { name, label, kind: "text", idPrefix, hint: overrides[name]?.hint, ...(names && { names }) };
    });
}

/** The names a list's URL may carry and pass to the bank: its filters and the pagination parameters. */
export function bankParameterNames(resource: ResourceName): string[] {
  return Object.keys(listQueries[resource].shape);
}
