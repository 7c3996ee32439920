import { is } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { SandboxContext } from "@/sandbox/context";
import type { SandboxDb } from "@/sandbox/db";
import * as schema from "@/sandbox/db/schema";
import { lockDataReplacement } from "@/sandbox/seed";

/**
 * Tables that a reset and a snapshot leave alone, with the reason: what a test authenticates with is not part of
 * the bank's state. Every other table of the schema is the bank's data (dataTables), so a table added later is
 * cleared by a reset and carried by a snapshot unless it is listed here.
 */
export const keptTables: ReadonlyMap<PgTable, string> = new Map<PgTable, string>([
  [schema.apiKeys, "API keys: the credentials the tests themselves call with"],
  [schema.sandboxSecrets, "the key that signs bearer and card tokens: tokens issued before stay valid"],
  [schema.dpopProofs, "DPoP proofs already used: a replayed proof stays refused"],
]);

export interface DataTable {
  table: PgTable;
  /** The table's name in the `sandbox` schema (a snapshot's key for it). */
  name: string;
  /** `"sandbox"."name"`, for SQL. */
  qualified: string;
}

/** Orders tables so that each comes after every table its foreign keys reference (inserts then never wait for a parent). */
function parentsFirst(tables: PgTable[]): PgTable[] {
  const ordered: PgTable[] = [];
  const visit = (table: PgTable) => {
    if (ordered.includes(table)) return;
    for (const key of getTableConfig(table).foreignKeys) {
      const parent = key.reference().foreignTable;
      if (parent !== table && tables.includes(parent)) visit(parent);
    }
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered;
}

/** Every table of the sandbox's schema except the kept ones, parents before children. */
export const dataTables: DataTable[] = parentsFirst(
  (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable) && !keptTables.has(value)),
).map((table) => {
  const config = getTableConfig(table);
  return { table, name: config.name, qualified: `"${config.schema}"."${config.name}"` };
});

const allDataTables = dataTables.map((table) => table.qualified).join(", ");

/** Tries of a replacement that PostgreSQL chose to abort in a deadlock (40P01) with a writer of the old data. */
const deadlockTries = 3;

/**
 * Replaces the bank's data in one transaction: every data table emptied, then `fill` writes the new state on the
 * same connection (`client` for bulk SQL, `db` for drizzle). Atomic: if `fill` throws, the old state stays whole.
 * Serialized with seeding at start (lockDataReplacement). Statistics are gathered afterwards, as after a seed (a bulk
 * load leaves the planner none; PGlite has no autovacuum).
 *
 * TRUNCATE locks every table, while a writer of the bank (the lifecycle, the delivery worker) may hold one and want
 * another: PostgreSQL then aborts one of the two. When that is the replacement, it starts again, since it only
 * empties and refills.
 */
export async function replaceData<T>(ctx: SandboxContext, fill: (client: pg.PoolClient, db: SandboxDb) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await replaceOnce(ctx, fill);
    } catch (error) {
      if ((error as { code?: unknown }).code !== "40P01" || attempt === deadlockTries) throw error;
    }
  }
}

async function replaceOnce<T>(ctx: SandboxContext, fill: (client: pg.PoolClient, db: SandboxDb) => Promise<T>): Promise<T> {
  const client = await ctx.database.pool.connect();
  try {
    await client.query("BEGIN");
    await lockDataReplacement(client);
    await client.query(`TRUNCATE ${allDataTables}`);
    const result = await fill(client, drizzle(client, { schema }));
    await client.query("COMMIT");
    await client.query(`ANALYZE ${allDataTables}`);
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
