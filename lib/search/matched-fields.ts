/**
 * Why a search result was found, as the searcher is shown it: which fields matched the query (as text, as similar
 * words, as its id or amount), at most four, each only where the role may match that part of the document, personal
 * data named by its field and shown masked.
 */
import type { ListedResource } from "@/lib/contract/operations";
import { amountInCents, searchFields } from "./document";
import type { AmountRange, ParsedQuery } from "./query";
import type { Searchable } from "./searchable";

/** Why a result was found: the field and its value as the searcher is shown it (masked where the viewer sees it so). */
export interface MatchedField {
  field: string;
  shown: string;
  how: "id" | "amount" | "text" | "similar";
  /** Matched in a field the viewer sees masked (userdata, personal data). */
  masked: boolean;
}

/** Trigrams of a word as pg_trgm counts them (padded with two blanks before and one after). */
function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const found = new Set<string>();
  for (let at = 0; at + 3 <= padded.length; at++) found.add(padded.slice(at, at + 3));
  return found;
}

function similarity(a: string, b: string): number {
  const left = trigrams(a);
  const right = trigrams(b);
  let shared = 0;
  for (const trigram of left) if (right.has(trigram)) shared++;
  return shared / (left.size + right.size - shared);
}

const tokensOf = (value: string) =>
  value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);

/** Least trigram similarity of a query word to a word of a field for a match as similar (a typo). */
const similarWord = 0.4;

/**
 * Whether a name answers the whole query: each of its words begins a word of the name or, for a typo, is similar to one
 * (`Tomas Smith` answers "Thomas Smith", not "Patricia Smith"). An amount range's part is not a word of it.
 */
export function nameAnswers(name: string, query: ParsedQuery, similar: boolean): boolean {
  const tokens = tokensOf(name);
  const words = query.words.flatMap(tokensOf);
  return (
    words.length > 0 &&
    words.every((word) => tokens.some((token) => token.startsWith(word) || (similar && word.length >= 3 && similarity(word, token) >= similarWord)))
  );
}

/** Whether a field's value matches the query as text, or only as similar (a typo), or not at all. */
function fieldMatch(value: string, query: ParsedQuery): "text" | "similar" | null {
  // A range of amounts alone has no words: only its amount matched.
  if (query.text === "") return null;
  const lower = value.toLowerCase();
  if (lower.includes(query.text.toLowerCase())) return "text";
  const tokens = tokensOf(value);
  const words = query.words.flatMap(tokensOf);
  if (words.length === 0) return null;
  if (words.some((word) => tokens.some((token) => token.startsWith(word)))) return "text";
  if (words.some((word) => word.length >= 3 && tokens.some((token) => similarity(word, token) >= similarWord))) return "similar";
  return null;
}

const inRange = (cents: number, range: AmountRange | null) =>
  range !== null && (range.minCents === null || cents >= range.minCents) && (range.maxCents === null || cents <= range.maxCents);

const valueAt = (object: unknown, path: string): unknown =>
  path
    .split(".")
    .reduce<unknown>((value, key) => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined), object);

/** What matched in one object, each field as the searcher is shown it. */
export function matchedFields(
  resource: ListedResource,
  state: Record<string, unknown>,
  shownState: Record<string, unknown>,
  query: ParsedQuery,
  visible: Searchable,
): MatchedField[] {
  const matched: MatchedField[] = [];
  if (query.id && state.id === query.id) matched.push({ field: "id", shown: query.id, how: "id", masked: false });
  else if (typeof state.id === "string" && query.text.length >= 4 && state.id.startsWith(query.text))
    matched.push({ field: "id", shown: state.id, how: "id", masked: false });
  const cents = amountInCents(state.amount);
  if (cents !== null && (cents === query.amountCents || inRange(cents, query.amountRange))) {
    matched.push({ field: "amount", shown: String(state.amount), how: "amount", masked: false });
  }
  const seen = new Set(matched.map((match) => match.field));
  const matchable = new Set(visible.filter((part) => part.kinds.includes(resource)).map((part) => part.visibility));
  for (const field of searchFields(resource, state)) {
    if (!matchable.has(field.visibility) || seen.has(field.path)) continue;
    const how = fieldMatch(field.value, query);
    if (!how) continue;
    seen.add(field.path);
    // Personal data is named by its field and shown masked: the value itself stays behind the audited reveal.
    const shown = field.visibility === "personal" ? String(valueAt(shownState, field.path) ?? "[masked]") : field.value;
    matched.push({ field: field.path, shown, how, masked: field.visibility !== "public" });
  }
  return matched.slice(0, 4);
}
