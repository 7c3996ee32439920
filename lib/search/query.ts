import { isStorableText } from "@/lib/contract/json-text";
import { idPrefixes } from "@/lib/contract/names";

/**
 * What one search box query may mean (docs/search.md). A query can mean several things at once: `1234` is an amount
 * (12.34? no: 1,234.00), the last four of a number and part of a trace number, so each reading is tried.
 */
export interface ParsedQuery {
  /** The query as searched for in text: trimmed, blanks collapsed; for a pasted URL, the id it names. */
  text: string;
  /** An object id the query is or names (pasted console or bank URL), else null. */
  id: string | null;
  /** The amount the query writes, in cents (`1234.56`, `1,234.56`, `$1,234.56`, `1234.5`, `1234`), else null. */
  amountCents: number | null;
  /**
   * The amounts the query asks for, in cents, inclusive: near an amount written without cents (`1350`, `$1,352`:
   * within 2% of it), or a range written as Stripe's search writes one (`>1000`, `>=1000`, `<50`, `1000..1500`, also
   * after `amount:`). Null when it asks for none.
   */
  amountRange: AmountRange | null;
  /** The words of `text` for the full-text search, each matched as a prefix. */
  words: string[];
}

/** Amounts from `minCents` to `maxCents` (either open); `near` when it is the 2% around an amount without cents. */
export interface AmountRange {
  minCents: number | null;
  maxCents: number | null;
  near: number | null;
}

/** How far from an amount written without cents an amount may be and still be found: 2% either side. */
export const nearAmountShare = 0.02;

export const maxQueryLength = 200;

export type QueryParse = { ok: true; query: ParsedQuery } | { ok: false; error: string };

const prefixes = Object.values(idPrefixes);
const idPattern = /^[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_-]{1,64}$/;
const looksLikeId = (value: string) => idPattern.test(value) && prefixes.some((prefix) => value.startsWith(prefix));

/** The id a console or bank URL names: its last path segment that is an id (`…/ach/ach_123`, `…/ach/ach_123/timeline`). */
export function idInUrl(text: string): string | null {
  if (!/^https?:\/\//i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const segments = url.pathname.split("/").map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  for (const segment of segments.reverse()) if (looksLikeId(segment)) return segment;
  for (const value of url.searchParams.values()) if (looksLikeId(value)) return value;
  return null;
}

/** An amount in any common form, in cents; null when the text is not one. */
export function amountOf(text: string): number | null {
  const match = /^(-)?\s*\$?\s*(-)?\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:[.]([0-9]{1,2}))?\s*(?:USD)?$/i.exec(text);
  if (!match || match[1] || match[2]) return null;
  const whole = match[3]!.replaceAll(",", "");
  if (whole.length > 13) return null;
  const cents = (match[4] ?? "").padEnd(2, "0");
  return Number(whole) * 100 + Number(cents);
}

/** The amounts within 2% of an amount written without cents (`1350`, `$1,352`), else null (cents mean that amount). */
export function nearAmountOf(text: string): AmountRange | null {
  const cents = amountOf(text);
  if (cents === null || /[.][0-9]{1,2}\s*(?:USD)?$/i.test(text)) return null;
  const spread = Math.round(cents * nearAmountShare);
  return { minCents: Math.max(0, cents - spread), maxCents: cents + spread, near: cents };
}

const rangeBound = String.raw`\$?\s*(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:[.][0-9]{1,2})?`;
const comparison = new RegExp(String.raw`^(?:amount:)?(>=|<=|>|<)\s*(${rangeBound})$`, "i");
const between = new RegExp(String.raw`^(?:amount:)?(${rangeBound})\s*[.][.]\s*(${rangeBound})$`, "i");

/**
 * A range of amounts as Stripe's search writes one, in dollars: `>1000` (above, not 1000.00 itself), `>=1000`,
 * `<50`, `<=50`, `1000..1500` (both inclusive), optionally after `amount:`. Null when the text is not one, or its
 * bounds cross.
 */
export function amountRangeOf(text: string): AmountRange | null {
  const compared = comparison.exec(text.replace(/\s+/g, ""));
  if (compared) {
    const cents = amountOf(compared[2]!);
    if (cents === null) return null;
    const operator = compared[1]!;
    if (operator === ">") return { minCents: cents + 1, maxCents: null, near: null };
    if (operator === ">=") return { minCents: cents, maxCents: null, near: null };
    if (operator === "<") return cents === 0 ? null : { minCents: null, maxCents: cents - 1, near: null };
    return { minCents: null, maxCents: cents, near: null };
  }
  const spanned = between.exec(text.replace(/\s+/g, ""));
  if (!spanned) return null;
  const [low, high] = [amountOf(spanned[1]!), amountOf(spanned[2]!)];
  return low === null || high === null || low > high ? null : { minCents: low, maxCents: high, near: null };
}

export function parseSearchQuery(raw: string | null | undefined): QueryParse {
  const typed = (raw ?? "").replace(/\s+/g, " ").trim();
  if (typed === "") return { ok: false, error: "q: type something to search for" };
  if (typed.length > maxQueryLength) return { ok: false, error: `q: at most ${maxQueryLength} characters` };
  // Text PostgreSQL cannot hold (NUL, lone surrogates) is refused, never sent to the database.
  if (!isStorableText(typed)) return { ok: false, error: "q: contains characters that cannot be searched" };
  const fromUrl = idInUrl(typed);
  // A range written beside words narrows them (`Summit >1000`); alone it lists the amounts it spans.
  const { range, rest } = fromUrl ? { range: null, rest: typed } : rangeIn(typed);
  const searched = fromUrl ?? rest;
  return {
    ok: true,
    query: {
      text: searched,
      id: fromUrl ?? (looksLikeId(searched) ? searched : null),
      amountCents: fromUrl || searched === "" ? null : amountOf(searched),
      amountRange: range ?? (fromUrl || searched === "" ? null : nearAmountOf(searched)),
      words: wordsOf(searched),
    },
  };
}

/** The query's range of amounts (the whole query, or one of its blank-separated parts) and the text left beside it. */
function rangeIn(text: string): { range: AmountRange | null; rest: string } {
  const whole = amountRangeOf(text);
  if (whole) return { range: whole, rest: "" };
  const parts = text.split(" ");
  const at = parts.findIndex((part) => amountRangeOf(part) !== null);
  if (at === -1) return { range: null, rest: text };
  return { range: amountRangeOf(parts[at]!), rest: parts.filter((_, index) => index !== at).join(" ") };
}

/** The words of a query for a prefix full-text query: letters, digits and `@ . _ + -` kept, anything else splits. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}@._+-]+/u)
    .map((word) => word.replace(/^[._+-]+|[._+-]+$/g, ""))
    .filter((word) => word.length > 0)
    .slice(0, 8);
}
