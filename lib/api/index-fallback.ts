import { sql } from "drizzle-orm";
import { BankCircuitOpenError, bankCircuitSnapshot } from "@/lib/bank/circuit";
import { BankServerError, BankTimeoutError, BankUnreachableError } from "@/lib/bank/errors";
import { ConsoleError } from "./errors";
import { listedResources, type ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import { listFromIndex } from "@/lib/search/index-list";
import { parseIndexListQuery } from "@/lib/search/index-list-input";

import { indexCopyField, type IndexCopyMark } from "@/lib/bank/index-copy-mark";
import { timeInMessage } from "@/lib/format/time";

/**
 * While the bank cannot answer, the proxy's list and detail reads answer the console's index copy instead of an error
 * (docs/bank-outage.md), marked by `indexCopyField` (lib/bank/index-copy-mark.ts); the list and detail pages show the
 * mark as the outage banner.
 */
export { indexCopyField, type IndexCopyMark };

/** What the index holds for a read, unmasked (the proxy masks it exactly as it masks the bank's answer), and its mark. */
export type IndexCopy<T> = { result: T; mark: IndexCopyMark };

export interface IndexCopies {
  /**
   * A list page for the bank's own list query (its filters applied by the index as the bank applies them,
   * lib/search/index-list.ts), or null for a page the index cannot find (a bank cursor): then the bank's failure stands.
   */
  list(
    environment: Environment,
    resource: ListedResource,
    query: Record<string, unknown>,
    listPath: string,
    failure: unknown,
  ): Promise<IndexCopy<{ data: Record<string, unknown>[]; page_next?: string }> | null>;
  /** The object as the index last recorded it, or null when the index does not hold it (or holds it as deleted). */
  get(environment: Environment, resource: ListedResource, id: string, failure: unknown): Promise<IndexCopy<Record<string, unknown>> | null>;
}

export const isIndexedResource = (resource: string | undefined): resource is ListedResource =>
  resource !== undefined && Object.hasOwn(listedResources, resource);

/**
 * Whether a failed bank read means the bank cannot answer now (its breaker open, no connection, no answer in time, a
 * 5xx): then the index's copy is shown, and a change that needed the read is refused as paused. A 4xx or a 429 is
 * the bank answering, and stays what it is.
 */
export function bankIsNotAnswering(error: unknown): boolean {
  return error instanceof BankUnreachableError || error instanceof BankTimeoutError || error instanceof BankServerError;
}

/**
 * A read the index keeps no copy of (an export's whole list, a webhook's delivery attempts, a reveal's unmasked object)
 * failing because the bank is not answering: a 503 `bank_unavailable` that says it comes only from the bank, with
 * `Retry-After`: the breaker's wait when it refused, the bank's own when it sent one, else `fallbackSeconds`. Anything
 * else is returned as it is. Never the index's copy, silently or labelled.
 */
/** BANK_BREAKER_HALF_OPEN_SECONDS's default (lib/env/schema.ts), for a proxy wired without it (tests, benchmarks). */
export const defaultOutageRetryAfterSeconds = 15;

export function onlyFromTheBank(error: unknown, what: string, fallbackSeconds: number): unknown {
  if (!bankIsNotAnswering(error)) return error;
  const since = error instanceof BankCircuitOpenError && error.failingSince ? ` since ${timeInMessage(error.failingSince)}` : "";
  const seconds = (error instanceof BankServerError ? error.retryAfterSeconds : undefined) ?? fallbackSeconds;
  return new ConsoleError(
    503,
    "bank_unavailable",
    `The bank is not answering${since}; ${what}, never from the console's copy. Try again in ${seconds} s.`,
    { "Retry-After": String(seconds) },
  );
}

const utc = (column: ReturnType<typeof sql>) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** When the bank stopped answering: the breaker's run of failures, else this failure. */
function bankSince(environment: Environment, error: unknown): string {
  const fromBreaker = bankCircuitSnapshot(environment)?.failingSince ?? (error instanceof BankCircuitOpenError ? error.failingSince : null);
  return fromBreaker ?? new Date().toISOString();
}

/**
 * The index's copies for the proxy, read from the console's database. Each read is given the bank's failure, which
 * dates the outage when the breaker has not (a first failure).
 */
export function indexCopies(db: () => Promise<ConsoleDb>): IndexCopies {
  return {
    async list(environment, resource, query, listPath, failure) {
      const params = Object.fromEntries(
        Object.entries(query)
          .filter(([, value]) => value !== undefined)
          .map(([name, value]) => [name, String(value)]),
      );
      // A bank cursor means nothing to the index; the index's own ("ix.") pages on through the copy.
      const parsed = parseIndexListQuery(resource, params);
      if (!parsed.ok) return null;
      const store = await db();
      const page = await listFromIndex(store, environment, resource, parsed.page, { revealed: true });
      const ids = page.data.map((object) => String(object.id));
      // Each row's own time by primary key, the newest taken here: max() in SQL is planned as a backward walk of the
      // last-changed index filtered by id, which reads every object of the environment (70 ms at 100,000).
      const changed =
        ids.length === 0
          ? []
          : (
              await store.execute<{ at: string }>(sql`
                SELECT ${utc(sql`last_changed_at`)} AS at FROM ${schema.bankObjects} WHERE environment = ${environment} AND id IN ${ids}`)
            ).rows.map((row) => row.at);
      const asOf = changed.length === 0 ? null : changed.reduce((newest, at) => (at > newest ? at : newest));
      const next = page.nextCursor ? `${listPath}?${new URLSearchParams({ ...params, page_cursor: page.nextCursor })}` : undefined;
      return {
        result: { data: page.data, ...(next && { page_next: next }) },
        mark: { source: "index", bankSince: bankSince(environment, failure), asOf, complete: page.index.complete },
      };
    },
    async get(environment, resource, id, failure) {
      const [row] = (
        await (
          await db()
        ).execute<{ state: Record<string, unknown> | null; as_of: string }>(sql`
          SELECT state, ${utc(sql`last_changed_at`)} AS as_of FROM ${schema.bankObjects}
          WHERE environment = ${environment} AND id = ${id} AND resource = ${resource}`)
      ).rows;
      if (!row?.state) return null;
      return { result: row.state, mark: { source: "index", bankSince: bankSince(environment, failure), asOf: row.as_of, complete: true } };
    },
  };
}
