import { isStorableText, unstorableTextMessage } from "@/lib/contract/json-text";

/**
 * Names in filters (docs/search.md, "Names in filters"), client-safe: which lists filter by the name of their objects
 * (the index's `name` filter), and which id filters take a name instead of an id, resolved to ids through the search.
 */

/** The kinds whose objects have a name, and the fields it is read from (as lib/search/names.ts reads it). */
export const nameFields = {
  counterparty: ["name"],
  person_application: ["first_name", "last_name"],
  business_application: ["name", "dba"],
  card: ["cardholder_name"],
} as const;
export type NamedKind = keyof typeof nameFields;

export const kindsWithName = Object.keys(nameFields) as NamedKind[];
export const isNamedKind = (kind: string): kind is NamedKind => Object.hasOwn(nameFields, kind);

/**
 * What an id filter's name resolves among: a kind with names, or `person`, whose ids (`psn_`) the bank lists nowhere:
 * a person is named by the person application that created it (its `person_id`).
 */
export type NameTarget = NamedKind | "person";

/** The name target of an id prefix (`cp_` → counterparty), or undefined when the index knows no names for it (`acct_`). */
export function nameTargetOfPrefix(idPrefix: string): NameTarget | undefined {
  const byPrefix: Record<string, NameTarget> = {
    cp_: "counterparty",
    card_: "card",
    psn_: "person",
    apsn_: "person_application",
    abus_: "business_application",
  };
  return byPrefix[idPrefix];
}

export const nameTargets: readonly NameTarget[] = [...kindsWithName, "person"];

export const maxNameLength = 100;

/**
 * The words of a name filter (each must appear in the name, in any case) and the fields of the kind a name is read
 * from, or a problem naming the parameter.
 */
export function parseNameFilter(
  kind: string,
  value: string,
): { ok: true; words: string[]; fields: readonly string[] } | { ok: false; error: string } {
  if (!isNamedKind(kind)) return { ok: false, error: `name: this list's objects have no name (lists with names: ${kindsWithName.join(", ")})` };
  if (value.length > maxNameLength) return { ok: false, error: `name: at most ${maxNameLength} characters` };
  if (!isStorableText(value)) return { ok: false, error: `name: ${unstorableTextMessage}` };
  const words = value.split(/\s+/).filter(Boolean);
  if (words.length === 0) return { ok: false, error: "name: give at least one word of the name" };
  return { ok: true, words, fields: nameFields[kind] };
}
