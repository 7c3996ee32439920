/**
 * The ranked candidates of a search: the SQL over the search documents that finds the objects a query names, in the
 * parts the role may match, and scores them (docs/search.md, "The query").
 */
import { sql, type SQL } from "drizzle-orm";
import { listedResources, type ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import type { Visibility } from "./document";
import { amountConditions, amountScore, amountWays } from "./amount-match";
import { withCounterpartyTransfers } from "./counterparty-transfers";
import type { ParsedQuery } from "./query";
import type { Searchable } from "./searchable";

const kinds = Object.keys(listedResources) as ListedResource[];

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

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

export type CandidateRow = {
  id: string;
  resource: ListedResource;
  state: Record<string, unknown>;
  score: number;
  /** The counterparty whose name the query matched, where the row was found as one of its transfers. */
  counterparty?: { id: string; name: string };
};

/** The ranked rows, and whether they were found as similar words (a typo), not as typed. */
export type Candidates = { rows: CandidateRow[]; similar: boolean };

/**
 * The ranked candidates: exact id, id prefix, amount, full-text prefix words and substring first; trigram word
 * similarity (a typo) only when those found nothing. Similarity is the costly part (pg_trgm recomputes it for every
 * row sharing a trigram, and an id's `ach_` is shared by every transfer), so a query that matches as typed never pays
 * for it, and an id never does.
 */
export async function candidates(
  db: ConsoleDb,
  environment: Environment,
  query: ParsedQuery,
  visible: Searchable,
  limit: number,
): Promise<Candidates> {
  if (query.text === "") return { rows: await inAmountRange(db, environment, query, limit), similar: false };
  const asTyped = await rankedCandidates(db, environment, query, visible, limit, false);
  // Typo tolerance is for words; an id, an email address or a number matches as written (a similar email or number
  // is another person's, and a near miss would hint at what a masked field holds).
  // Nor do one or two characters: pg_trgm's similarity of so few is noise, and would scan most of the index.
  const fuzzy = query.text.length >= 3 && !query.id && !query.text.includes("@") && !/^[\d\s$.,-]+$/.test(query.text);
  if (asTyped.length > 0 || !fuzzy) return { rows: await withCounterpartyTransfers(db, environment, query, asTyped, limit, false), similar: false };
  const similar = await db.transaction(async (transaction) => {
    // pg_trgm's default (0.6) misses a letter left out of a six-letter word (`Dmiri` for `Dmitri` is 0.5); this is
    // the fallback when nothing matched as typed, ranked by similarity, so a wider net costs no precision up top.
    await transaction.execute(sql.raw(`SET LOCAL pg_trgm.word_similarity_threshold = ${typoThreshold}`));
    return rankedCandidates(transaction, environment, query, visible, limit, true);
  });
  return { rows: await withCounterpartyTransfers(db, environment, query, similar, limit, true), similar: true };
}

/** A query that is a range of amounts alone (`>1000`, `1000..1500`): the money movements in it, newest first. */
async function inAmountRange(db: ConsoleDb, environment: Environment, query: ParsedQuery, limit: number): Promise<CandidateRow[]> {
  const conditions = amountConditions(query.amountRange);
  if (conditions.length === 0) return [];
  const result = await db.execute<CandidateRow>(sql`
    SELECT s.id, s.resource, o.state, 0::float8 AS score
    FROM ${schema.bankSearch} s
    JOIN ${schema.bankObjects} o ON o.environment = s.environment AND o.id = s.id
    WHERE s.environment = ${environment} AND o.state IS NOT NULL AND ${sql.join(conditions, sql` AND `)}
    ORDER BY o.bank_created_at DESC NULLS LAST, s.id
    LIMIT ${limit}`);
  return result.rows;
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
  // A range written beside the words narrows every way of matching (`Summit >1000`).
  const narrowed = query.amountRange?.near === null ? amountConditions(query.amountRange) : [];
  const where = (match: SQL) => sql.join([sql`s.environment = ${environment}`, match, ...narrowed], sql` AND `);
  const subqueries = matches.map((match) => sql`(SELECT s.id FROM ${schema.bankSearch} s WHERE ${where(match)} LIMIT ${perWayCap})`);
  if (!similar) subqueries.push(...amountWays(environment, query.amountRange));
  if (subqueries.length === 0) return [];
  const exact = query.id ? sql`(CASE WHEN s.id = ${query.id} THEN 1000 ELSE 0 END)` : sql`0`;
  const prefix = idPrefix ? sql`(CASE WHEN s.id LIKE ${idPrefix} THEN 500 ELSE 0 END)` : sql`0`;
  const amount = amountScore(query);
  const text = scores.length > 0 ? sql`100 * greatest(${sql.join(scores, sql`, `)})` : sql`0`;
  // Each way of matching is its own index-served subquery: ORed in one WHERE, a condition the planner thinks loose
  // (a short amount, an email's prefix word) turned the whole search into a scan of every document. Each stops at
  // `perWayCap` ids: the first keystrokes of any search (`a`, `$7`, `ach_`) match most of a million objects, and
  // ranking all of them took minutes on PGlite, holding its one session while the next keystrokes waited.
  const ways = sql.join(subqueries, sql` UNION `);
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
