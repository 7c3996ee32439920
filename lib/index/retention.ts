import { sql } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";

/**
 * Deletes versions and processed notifications older than `days`, except each object's latest version (its current
 * state stays known however old it is).
 */
export async function purgeExpiredVersions(db: ConsoleDb, days: number): Promise<void> {
  await db.execute(sql`
    DELETE FROM ${schema.bankObjectVersions} v
    WHERE v.seen_at < now() - ${days} * interval '1 day'
      AND v.version < (SELECT o.version FROM ${schema.bankObjects} o WHERE o.environment = v.environment AND o.id = v.object_id)`);
  await db.execute(sql`DELETE FROM ${schema.bankEventInbox} WHERE state = 'processed' AND received_at < now() - ${days} * interval '1 day'`);
}

/** Everything the index holds of one environment: its objects, versions, search documents, notifications and backfill progress. */
export async function purgeEnvironment(db: ConsoleDb, environment: Environment): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of [schema.bankObjectVersions, schema.bankObjects, schema.bankSearch, schema.bankEventInbox, schema.indexBackfill]) {
      await tx.execute(sql`DELETE FROM ${table} WHERE environment = ${environment}`);
    }
  });
}
