import { sql } from "drizzle-orm";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";

/**
 * Deletes versions seen more than `versionDays` ago, except each object's latest version (its current state stays known
 * however old it is), and processed notifications (dead letters included) received more than `inboxDays` ago. A
 * notification still waiting is never deleted: the inbox's cap and attempt bound keep those few.
 */
export async function purgeExpired(db: ConsoleDb, { versionDays, inboxDays }: { versionDays: number; inboxDays: number }): Promise<void> {
  await db.execute(sql`
    DELETE FROM ${schema.bankObjectVersions} v
    WHERE v.seen_at < now() - ${versionDays} * interval '1 day'
      AND v.version < (SELECT o.version FROM ${schema.bankObjects} o WHERE o.environment = v.environment AND o.id = v.object_id)`);
  await db.execute(sql`DELETE FROM ${schema.bankEventInbox} WHERE state = 'processed' AND received_at < now() - ${inboxDays} * interval '1 day'`);
}

/** Everything the index holds of one environment: its objects, versions, search documents, notifications and backfill progress. */
export async function purgeEnvironment(db: ConsoleDb, environment: Environment): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of [schema.bankObjectVersions, schema.bankObjects, schema.bankSearch, schema.bankEventInbox, schema.indexBackfill]) {
      await tx.execute(sql`DELETE FROM ${table} WHERE environment = ${environment}`);
    }
  });
}
