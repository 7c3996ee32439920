import { sql, type SQL } from "drizzle-orm";
import { audited, type AuditEntry } from "@/lib/audit/trail";
import { listedResources, type ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { Role } from "@/lib/permissions";
import { maskForViewer, seesAllUnmasked, seesUnmasked, type MaskedResource } from "@/lib/pii";
import { amountInCents, searchFields, type Visibility } from "./document";
import { nameOf } from "./names";
import type { ParsedQuery } from "./query";
import type { ConsoleDb } from "@/lib/db/console-db";

const kinds = Object.keys(listedResources) as ListedResource[];

/** The parts of the search documents a role may match, each with the kinds it may match it in. */
export type Searchable = { visibility: Visibility; kinds: ListedResource[] }[];

/**
 * Which parts of the search documents a role may match, and in which kinds (docs/search.md): never a field it would see
 * masked, by the table the proxy masks with (lib/pii.ts). `public` everywhere; `userdata` where the role sees userdata
 * (every kind for `pii:reveal`, a network transfer's for the roles that edit it); `personal` (every other masked
 * field) only where the role sees every field. A part no kind allows is left out.
 */
export function searchableBy(role: Role): Searchable {
  const parts: Searchable = [
    { visibility: "public", kinds },
    { visibility: "userdata", kinds: kinds.filter((kind) => seesUnmasked(kind, role, "userdata")) },
    { visibility: "personal", kinds: kinds.filter((kind) => seesAllUnmasked(kind, role)) },
  ];
  return parts.filter((part) => part.kinds.length > 0);
}

/** The condition limiting a part's match to its kinds (none for a part of every kind). */
const kindsCondition = (part: Searchable[number]) => (part.kinds.length === kinds.length ? null : sql`s.resource IN ${part.kinds}`);

const columnOf: Record<Visibility, SQL> = {
  public: sql.raw("s.public_text"),
  userdata: sql.raw("s.userdata_text"),
  personal: sql.raw("s.personal_text"),
};

/** Each text's stored full-text vector (migration 0018): read, never recomputed per row. */
const vectorOf: Record<Visibility, SQL> = {
  public: sql.raw("s.public_tsv"),
  userdata: sql.raw("s.userdata_tsv"),
  personal: sql.raw("s.personal_tsv"),
};

/** Why a result was found: the field and its value as the searcher is shown it (masked where the viewer sees it so). */
export interface MatchedField {
  field: string;
  shown: string;
  how: "id" | "amount" | "text" | "similar";
  /** Matched in a field the viewer sees masked (userdata, personal data). */
  masked: boolean;
}

export interface SearchHit {
  id: string;
  resource: ListedResource;
  name: string | null;
  status: string | null;
  amount: string | null;
  createdAt: string | null;
  matched: MatchedField[];
  score: number;
}

export interface SearchGroup {
  resource: ListedResource;
  hits: SearchHit[];
}

export interface SearchResults {
  query: string;
  /** Groups by kind, the group of the best hit first; hits best first. */
  groups: SearchGroup[];
  total: number;
  /** Parts of the documents searched (in some kinds at least): `userdata` and `personal` only for roles that may see them. */
  searched: Visibility[];
}

export const searchLimit = 50;

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

type CandidateRow = { id: string; resource: ListedResource; state: Record<string, unknown>; score: number };

/**
 * The ranked candidates: exact id, id prefix, amount, full-text prefix words and substring first; trigram word
 * similarity (a typo) only when those found nothing. Similarity is the costly part (pg_trgm recomputes it for every
 * row sharing a trigram, and an id's `ach_` is shared by every transfer), so a query that matches as typed never pays
 * for it, and an id never does.
 */
async function candidates(db: ConsoleDb, environment: Environment, query: ParsedQuery, visible: Searchable, limit: number) {
  const asTyped = await rankedCandidates(db, environment, query, visible, limit, false);
  // Typo tolerance is for words; an id, an email address or a number matches as written (a similar email or number
  // is another person's, and a near miss would hint at what a masked field holds).
  // Nor do one or two characters: pg_trgm's similarity of so few is noise, and would scan most of the index.
  const fuzzy = query.text.length >= 3 && !query.id && !query.text.includes("@") && !/^[\d\s$.,-]+$/.test(query.text);
  if (asTyped.length > 0 || !fuzzy) return asTyped;
  return db.transaction(async (transaction) => {
    // pg_trgm's default (0.6) misses a letter left out of a six-letter word (`Dmiri` for `Dmitri` is 0.5); this is
    // the fallback when nothing matched as typed, ranked by similarity, so a wider net costs no precision up top.
    await transaction.execute(sql.raw(`SET LOCAL pg_trgm.word_similarity_threshold = ${typoThreshold}`));
    return rankedCandidates(transaction, environment, query, visible, limit, true);
  });
}

const typoThreshold = 0.5;

async function rankedCandidates(
  db: Pick<ConsoleDb, "execute">,
  environment: Environment,
  query: ParsedQuery,
  visible: Searchable,
  limit: number,
  similar: boolean,
): Promise<CandidateRow[]> {
  const tsQuery = query.words.length > 0 ? query.words.map(prefixTerm).join(" & ") : null;
  const like = `%${likeEscaped(query.text)}%`;
  // Only what could begin an id (letters, digits, `_`): an amount or an email address never does.
  const idPrefix = query.text.length >= 4 && /^[A-Za-z0-9_-]+$/.test(query.text) ? `${likeEscaped(query.text)}%` : null;
  const typoWords = query.words.filter((word) => word.length >= 3);
  const matches: SQL[] = [];
  const scores: SQL[] = [];
  for (const part of visible) {
    const column = columnOf[part.visibility];
    const vector = vectorOf[part.visibility];
    // A part matched in some kinds only: both its matches and its scores count there alone (a score is a hint too).
    const inKinds = kindsCondition(part);
    const match = (condition: SQL) => matches.push(inKinds ? sql`(${inKinds} AND ${condition})` : condition);
    const score = (value: SQL) => scores.push(inKinds ? sql`(CASE WHEN ${inKinds} THEN ${value} ELSE 0 END)` : value);
    if (similar) {
      // The whole query close to some part of the text (one typo in a long name), or every word close to a word of
      // it (a typo in each word: `Dmiri Miler`), scored by the closer of the two.
      match(sql`${query.text} OPERATOR(console.<%) ${column}`);
      score(sql`console.word_similarity(${query.text}, ${column})`);
      if (typoWords.length > 1) {
        match(
          sql`(${sql.join(
            typoWords.map((word) => sql`${word} OPERATOR(console.<%) ${column}`),
            sql` AND `,
          )})`,
        );
        score(
          sql`(${sql.join(
            typoWords.map((word) => sql`console.word_similarity(${word}, ${column})`),
            sql` + `,
          )}) / ${typoWords.length}`,
        );
      }
      continue;
    }
    if (tsQuery) match(sql`${vector} @@ to_tsquery('simple'::regconfig, ${tsQuery})`);
    // An id is found whole by its own arm and, where another object names it, by the full-text arm; a substring scan of
    // the public and personal texts would add nothing but its cost (~25 ms at 100,000 objects). In userdata an id may
    // sit inside a longer value (a URL), so that text is still scanned.
    const substring = query.text.length >= 3 && !(query.id && part.visibility !== "userdata");
    if (substring) match(sql`${column} ILIKE ${like}`);
    score(sql`(CASE WHEN ${column} ILIKE ${like} THEN 1 ELSE 0 END)`);
    if (tsQuery) score(sql`ts_rank(${vector}, to_tsquery('simple'::regconfig, ${tsQuery}))`);
  }
  if (!similar) {
    if (query.id) matches.push(sql`s.id = ${query.id}`);
    if (idPrefix) matches.push(sql`s.id LIKE ${idPrefix}`);
    if (query.amountCents !== null) matches.push(sql`s.amount_cents = ${query.amountCents}`);
  }
  if (matches.length === 0) return [];
  const exact = query.id ? sql`(CASE WHEN s.id = ${query.id} THEN 1000 ELSE 0 END)` : sql`0`;
  const prefix = idPrefix ? sql`(CASE WHEN s.id LIKE ${idPrefix} THEN 500 ELSE 0 END)` : sql`0`;
  const amount = query.amountCents !== null ? sql`(CASE WHEN s.amount_cents = ${query.amountCents} THEN 300 ELSE 0 END)` : sql`0`;
  const text = scores.length > 0 ? sql`100 * greatest(${sql.join(scores, sql`, `)})` : sql`0`;
  // Each way of matching is its own index-served subquery: ORed in one WHERE, a condition the planner thinks loose
  // (a short amount, an email's prefix word) turned the whole search into a scan of every document. Each stops at
  // `perWayCap` ids: the first keystrokes of any search (`a`, `$7`, `ach_`) match most of a million objects, and
  // ranking all of them took minutes on PGlite, holding its one session while the next keystrokes waited.
  const ways = sql.join(
    matches.map((match) => sql`(SELECT s.id FROM ${schema.bankSearch} s WHERE s.environment = ${environment} AND ${match} LIMIT ${perWayCap})`),
    sql` UNION `,
  );
  const matching = sql`SELECT matched.id FROM (${ways}) AS matched`;
  // The matching ids first: a search usually names a few objects, and a list of them is joined a lookup each. Given
  // the subqueries instead, the planner guesses thousands of ids from a prefix word and hash-joins every object (the
  // time of an amount or an email search at 100,000 objects). A broad query is ranked over its subqueries at once.
  const found = await db.execute<{ id: string }>(sql`${matching} LIMIT ${fewIds + 1}`);
  if (found.rows.length === 0) return [];
  const chosen =
    found.rows.length <= fewIds
      ? sql.join(
          found.rows.map((row) => sql`${row.id}`),
          sql`, `,
        )
      : matching;
  const result = await db.execute<CandidateRow>(sql`
    SELECT s.id, s.resource, o.state, (${exact} + ${prefix} + ${amount} + ${text})::float8 AS score
    FROM ${schema.bankSearch} s
    JOIN ${schema.bankObjects} o ON o.environment = s.environment AND o.id = s.id
    WHERE s.environment = ${environment} AND o.state IS NOT NULL AND s.id IN (${chosen})
    ORDER BY score DESC, o.bank_created_at DESC NULLS LAST, s.id
    LIMIT ${limit}`);
  return result.rows;
}

/**
 * One query word as a full-text term matched as a prefix. The parser splits a word at `_` (an id: `ach_000r1f` is
 * `ach` then `000r1f`) and `to_tsquery` would make every part a prefix; only the last part may be unfinished. The
 * others are matched whole: `ach` as a prefix stands for every entry starting with it, each transfer's, and reading
 * them took 30 of an id search's 33 ms at a million objects, where `ach` whole, a lookup beside the id's own part,
 * takes 1.4 ms (docs/search.md, "Speed").
 */
function prefixTerm(word: string): string {
  const split = word.lastIndexOf("_");
  if (split <= 0 || split === word.length - 1) return prefixOrWhole(word);
  return `('${word.slice(0, split)}' <-> ${prefixOrWhole(word.slice(split + 1))})`;
}

/**
 * A part of one character is matched whole: as a prefix it stands for a good part of every entry (the first keystroke
 * of any search), which GIN reads in full before any limit applies (docs/search.md, "Broad queries").
 */
const prefixOrWhole = (part: string) => (part.length > 1 ? `'${part}':*` : `'${part}'`);

/** Up to this many matching ids are ranked as a list (above: over the subqueries again). */
const fewIds = 200;
/**
 * At most this many ids from each way of matching are ranked: a query matching more is too broad to rank exactly, and
 * its best are the best of the first found (docs/search.md, "Broad queries").
 */
const perWayCap = 1000;

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

/** Whether a field's value matches the query as text, or only as similar (a typo), or not at all. */
function fieldMatch(value: string, query: ParsedQuery): "text" | "similar" | null {
  const lower = value.toLowerCase();
  if (lower.includes(query.text.toLowerCase())) return "text";
  const tokens = tokensOf(value);
  const words = query.words.flatMap(tokensOf);
  if (words.length === 0) return null;
  if (words.some((word) => tokens.some((token) => token.startsWith(word)))) return "text";
  if (words.some((word) => word.length >= 3 && tokens.some((token) => similarity(word, token) >= 0.4))) return "similar";
  return null;
}

const valueAt = (object: unknown, path: string): unknown =>
  path
    .split(".")
    .reduce<unknown>((value, key) => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined), object);

/** What matched in one object, each field as the searcher is shown it. */
function matchedFields(
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
  if (query.amountCents !== null && amountInCents(state.amount) === query.amountCents) {
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

/** Searches the index of one environment as `role` may: every object the query names, grouped by kind, best first. */
export async function searchIndex(
  db: ConsoleDb,
  input: { environment: Environment; role: Role; query: ParsedQuery; limit?: number },
): Promise<SearchResults> {
  const visible = searchableBy(input.role);
  const rows = await candidates(db, input.environment, input.query, visible, input.limit ?? searchLimit);
  const groups = new Map<ListedResource, SearchHit[]>();
  for (const row of rows) {
    const shownState = maskForViewer(row.resource as MaskedResource, structuredClone(row.state));
    const hit: SearchHit = {
      id: row.id,
      resource: row.resource,
      name: nameOf(row.resource, shownState),
      status: typeof shownState.status === "string" ? shownState.status : null,
      amount: typeof shownState.amount === "string" ? shownState.amount : null,
      createdAt: typeof shownState.created_at === "string" ? shownState.created_at : null,
      matched: matchedFields(row.resource, row.state, shownState, input.query, visible),
      score: Number(row.score),
    };
    const group = groups.get(row.resource) ?? [];
    group.push(hit);
    groups.set(row.resource, group);
  }
  return {
    query: input.query.text,
    groups: [...groups].map(([resource, hits]) => ({ resource, hits })),
    total: rows.length,
    searched: visible.map((part) => part.visibility),
  };
}

/**
 * The search as the console runs it for a staff member: a role that may match masked fields (userdata, personal data)
 * leaves an audit record of every search, with its terms and which results matched in masked fields, written before
 * the search runs (no record, no search).
 */
export async function searchAsStaff(
  db: ConsoleDb,
  input: { environment: Environment; actor: AuditEntry["actor"]; requestId: string; query: ParsedQuery },
): Promise<SearchResults> {
  const run = () => searchIndex(db, { environment: input.environment, role: input.actor.role, query: input.query });
  if (searchableBy(input.actor.role).length === 1) return run();
  return audited(
    db,
    {
      actor: input.actor,
      environment: input.environment,
      action: "search.masked_fields",
      targetId: null,
      before: { query: input.query.text },
      requestId: input.requestId,
    },
    run,
    {
      after: (results) => ({
        results: results.total,
        matchedInMaskedFields: results.groups.flatMap((group) =>
          group.hits
            .filter((hit) => hit.matched.some((match) => match.masked))
            .map((hit) => ({ id: hit.id, fields: hit.matched.filter((match) => match.masked).map((match) => match.field) })),
        ),
      }),
    },
  );
}
