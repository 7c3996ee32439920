/**
 * Amounts in a search (docs/search.md, "Amounts"): an amount written with cents is matched exactly; one written
 * without cents (`1350`, `$1,352`) finds the amounts within 2% of it, the nearest first; a range (`>1000`,
 * `1000..1500`, `<50`) lists the money movements in it, or narrows the words written beside it.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { AmountRange, ParsedQuery } from "./query";

/** The conditions on a document's amount that keep it in the range (none for no range). */
export function amountConditions(range: AmountRange | null): SQL[] {
  if (!range) return [];
  const conditions: SQL[] = [];
  if (range.minCents !== null) conditions.push(sql`s.amount_cents >= ${range.minCents}`);
  if (range.maxCents !== null) conditions.push(sql`s.amount_cents <= ${range.maxCents}`);
  return conditions;
}

/**
 * The ways an amount without cents matches: the nearest amounts at or above it and those below it, each read in the
 * amount index's order up to `nearestEachSide`, so near amounts in a million transfers are found in index order, not by
 * sorting every amount within 2%.
 */
export function amountWays(environment: Environment, range: AmountRange | null): SQL[] {
  if (!range || range.near === null || range.minCents === null || range.maxCents === null) return [];
  const from = sql`SELECT s.id FROM ${schema.bankSearch} s WHERE s.environment = ${environment}`;
  return [
    sql`(${from} AND s.amount_cents >= ${range.near} AND s.amount_cents <= ${range.maxCents} ORDER BY s.amount_cents LIMIT ${nearestEachSide})`,
    sql`(${from} AND s.amount_cents >= ${range.minCents} AND s.amount_cents < ${range.near} ORDER BY s.amount_cents DESC LIMIT ${nearestEachSide})`,
  ];
}

/** At most this many amounts above and this many below an amount without cents are found (the nearest). */
const nearestEachSide = 20;

/**
 * Score of the exact amount (300) and of a near one (50 to 99, closer higher): below a word matched as typed (100),
 * since four digits are as often the last four of a card or an account as dollars.
 */
const exactAmountScore = 300;

export function amountScore(query: ParsedQuery): SQL {
  const exact = query.amountCents !== null ? sql`WHEN s.amount_cents = ${query.amountCents} THEN ${exactAmountScore}` : null;
  const range = query.amountRange;
  const near =
    range && range.near !== null && range.minCents !== null && range.maxCents !== null
      ? sql`WHEN s.amount_cents BETWEEN ${range.minCents} AND ${range.maxCents}
          THEN 50 + 49 * (1 - abs(s.amount_cents - ${range.near})::float8 / ${Math.max(1, range.maxCents - range.near)})`
      : null;
  const cases = [exact, near].filter((branch) => branch !== null);
  return cases.length > 0 ? sql`(CASE ${sql.join(cases, sql` `)} ELSE 0 END)` : sql`0`;
}
