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
  /** The words of `text` for the full-text search, each matched as a prefix. */
  words: string[];
}

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

export function parseSearchQuery(raw: string | null | undefined): QueryParse {
  const text = (raw ?? "").replace(/\s+/g, " ").trim();
  if (text === "") return { ok: false, error: "q: type something to search for" };
  if (text.length > maxQueryLength) return { ok: false, error: `q: at most ${maxQueryLength} characters` };
  // Text PostgreSQL cannot hold (NUL, lone surrogates) is refused, never sent to the database.
  if (!isStorableText(text)) return { ok: false, error: "q: contains characters that cannot be searched" };
  const fromUrl = idInUrl(text);
  const searched = fromUrl ?? text;
  return {
    ok: true,
    query: {
      text: searched,
      id: fromUrl ?? (looksLikeId(searched) ? searched : null),
      amountCents: fromUrl ? null : amountOf(searched),
      words: wordsOf(searched),
    },
  };
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
