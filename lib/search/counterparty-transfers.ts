/**
 * A counterparty's name finds the transfers with it (docs/search.md, "A counterparty's transfers"): a transfer names
 * its counterparty by id only, so the name a caller says matches the counterparty, and its transfers are added right
 * after it, its newest 20 first, each saying that it was found through its counterparty's name (the counterparty's
 * page lists them all).
 */
import { sql } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import { maskForViewer } from "@/lib/pii";
import type { CandidateRow } from "./candidates";
import { amountConditions } from "./amount-match";
import { nameAnswers } from "./matched-fields";
import { nameOf } from "./names";
import type { ParsedQuery } from "./query";

/** At most this many counterparties named by one query bring their transfers, each its newest this many. */
const namedCounterparties = 3;
const transfersPerCounterparty = 20;

/**
 * The rows with the transfers of each counterparty among them whose name (a field every role sees) matches the query,
 * as typed or, for a typo, as similar words. A transfer scores just below its counterparty, so a counterparty's
 * transfers rank above transfers that share only a word of its name elsewhere (an originator's name).
 */
export async function withCounterpartyTransfers(
  db: Pick<ConsoleDb, "execute">,
  environment: Environment,
  query: ParsedQuery,
  rows: CandidateRow[],
  limit: number,
  similar: boolean,
): Promise<CandidateRow[]> {
  const named = rows
    .filter((row) => row.resource === "counterparty")
    .map((row) => ({ row, name: nameOf("counterparty", maskForViewer("counterparty", structuredClone(row.state))) }))
    .filter((found): found is { row: CandidateRow; name: string } => found.name !== null && nameAnswers(found.name, query, similar))
    .slice(0, namedCounterparties);
  if (named.length === 0) return rows;
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const { row: counterparty, name } of named) {
    const narrowed = amountConditions(query.amountRange?.near === null ? query.amountRange : null);
    // Read newest first in the order of their index (migration 0032), joined to their documents for a range's narrowing.
    const transfers = await db.execute<CandidateRow>(sql`
      SELECT o.id, o.resource, o.state
      FROM ${schema.bankObjects} o
      JOIN ${schema.bankSearch} s ON s.environment = o.environment AND s.id = o.id
      WHERE o.environment = ${environment} AND (o.state ->> 'counterparty_id') = ${counterparty.id}
        ${narrowed.length > 0 ? sql`AND ${sql.join(narrowed, sql` AND `)}` : sql``}
      ORDER BY o.bank_created_at DESC, o.id DESC
      LIMIT ${transfersPerCounterparty}`);
    for (const transfer of transfers.rows) {
      const score = Number(counterparty.score) - 1;
      const known = byId.get(transfer.id);
      if (known && Number(known.score) >= score) continue;
      byId.set(transfer.id, { ...transfer, score, counterparty: { id: counterparty.id, name } });
    }
  }
  return [...byId.values()].sort(byRank).slice(0, limit);
}

/** Best score first, then newest (as the SQL ranks), then id. */
function byRank(a: CandidateRow, b: CandidateRow): number {
  const scores = Number(b.score) - Number(a.score);
  if (scores !== 0) return scores;
  const created = String(b.state.created_at ?? "").localeCompare(String(a.state.created_at ?? ""));
  return created !== 0 ? created : a.id.localeCompare(b.id);
}
