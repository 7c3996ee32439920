import { sql } from "drizzle-orm";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";

/**
 * Exact counts from the console's index of the bank (docs/bank-index.md), which the bank's API cannot give (it has
 * no count endpoint). Only a kind whose backfill walk has finished is counted: before that the index holds part of
 * it, and Home falls back to the bank's first page ("100+").
 */
export interface IndexCounts {
  /** When the counts were read (the database's clock). */
  asOf: string;
  /** The index's newest change of this environment, null when it holds nothing. */
  lastChange: string | null;
  /** Kinds whose walk has finished: their counts are exact. */
  complete: ListedResource[];
  /** Objects by kind and status (status "" for objects without one); kinds not complete are left out. */
  byStatus: Partial<Record<ListedResource, Record<string, number>>>;
  /** Person applications without a person yet (no `person_id`); null when that kind is not complete. */
  applicationsWithoutPerson: number | null;
}

export async function indexCounts(db: ConsoleDb, environment: Environment): Promise<IndexCounts> {
  const complete = (
    await db.execute<{ resource: ListedResource }>(sql`
      SELECT resource FROM ${schema.indexBackfill} WHERE environment = ${environment} AND finished_at IS NOT NULL AND error IS NULL ORDER BY resource`)
  ).rows.map((row) => row.resource);
  const [times] = (
    await db.execute<{ as_of: string; last_change: string | null }>(sql`
      SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of,
             to_char(max(last_changed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_change
      FROM ${schema.bankObjects} WHERE environment = ${environment}`)
  ).rows;
  const byStatus: IndexCounts["byStatus"] = {};
  let applicationsWithoutPerson: number | null = null;
  if (complete.length > 0) {
    // Kept per kind and status by the index's own writes (migration 0023): a few rows, however large the index.
    const rows = await db.execute<{ resource: ListedResource; status: string; objects: number; without_person: number }>(sql`
      SELECT resource, status, objects::int AS objects, without_person::int AS without_person
      FROM ${schema.bankObjectCounts}
      WHERE environment = ${environment} AND resource IN ${complete} AND objects > 0`);
    for (const resource of complete) byStatus[resource] = {};
    for (const row of rows.rows) {
      byStatus[row.resource]![row.status] = row.objects;
      if (row.resource === "person_application") applicationsWithoutPerson = (applicationsWithoutPerson ?? 0) + row.without_person;
    }
    if (complete.includes("person_application")) applicationsWithoutPerson ??= 0;
  }
  return { asOf: times!.as_of, lastChange: times!.last_change, complete, byStatus, applicationsWithoutPerson };
}
