import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { SandboxContext } from "@/sandbox/context";
import {
  achTransfers,
  businessApplications,
  cards,
  counterparties,
  depositSweeps,
  digitalWalletTokens,
  fednowPayments,
  networkTransfers,
  personApplications,
} from "@/sandbox/db/resources-schema";
import { generateBusinessApplications, generatePersonApplications } from "./applications";
import { insertRows } from "./bulk-insert";
import { generateCards, generateCounterparties, generateDepositSweeps, generateDigitalWalletTokens } from "./parties";
import { AchGenerator, achCoverage, generateFednowPayments, generateNetworkTransfers, type AchRow } from "./payments";
import { SeededRandom } from "./random";
import { CalendarCache, createWorld, wholeSeconds } from "./shared";

export type SeedName = "demo" | "empty" | number;

/** Sizes of the demo set: the biggest lists (ACH, person applications) span several pages of the default 100. */
export const demoSizes = {
  counterparty: 60,
  ach: 350,
  network_transfer: 150,
  fednow: 150,
  person_application: 120,
  business_application: 45,
  deposit_sweep: 30,
  card: 60,
  digital_wallet_token: 40,
} as const;

/** Every resource table the seed fills, by resource name. */
export const seededTables = {
  counterparty: counterparties,
  ach: achTransfers,
  network_transfer: networkTransfers,
  fednow: fednowPayments,
  person_application: personApplications,
  business_application: businessApplications,
  deposit_sweep: depositSweeps,
  card: cards,
  digital_wallet_token: digitalWalletTokens,
} satisfies Record<keyof typeof demoSizes, PgTable>;

/**
 * Rows per INSERT when loading many ACH transfers (~450 KB of parameters). Bigger batches cost more than they save:
 * the embedded server's socket reassembles a message by concatenating every chunk onto the ones before, which is
 * quadratic in the message size.
 */
const ACH_BATCH = 2_000;
/** From this many ACH transfers on, indexes are built once after loading rather than maintained row by row. */
const REBUILD_INDEXES_FROM = 50_000;
/** Every set derives from this one seed string: the same set and clock always give the same data. */
const SEED = "sandbox-bank-seed-v1";

/**
 * Generates a data set relative to `now`. Every resource except ACH is the demo set; ACH transfers are produced on
 * demand in batches (`achBatches`), so a million of them never sit in memory at once.
 */
export function generateSeedData(now: Date, achCount: number) {
  const root = new SeededRandom(SEED);
  const at = wholeSeconds(now);
  const calendar = new CalendarCache();
  const world = createWorld(root.fork("world"));
  const counterpartyRows = generateCounterparties(root.fork("counterparty"), at, demoSizes.counterparty);
  const people = generatePersonApplications(root.fork("person_application"), at, demoSizes.person_application);
  const persons = people.flatMap((person) =>
    person.person_id ? [{ person_id: person.person_id, email: person.email_address, first: person.first_name, last: person.last_name }] : [],
  );
  const cardRows = generateCards(root.fork("card"), at, world, persons, demoSizes.card);
  const achRandom = root.fork("ach");
  const achGenerator = new AchGenerator(
    achRandom,
    at,
    world,
    counterpartyRows.filter((row) => row.ach),
    calendar,
    achCount,
  );
  return {
    rows: {
      counterparty: counterpartyRows,
      person_application: people,
      business_application: generateBusinessApplications(root.fork("business_application"), at, world, people, demoSizes.business_application),
      deposit_sweep: generateDepositSweeps(root.fork("deposit_sweep"), at, world, persons, demoSizes.deposit_sweep),
      card: cardRows,
      digital_wallet_token: generateDigitalWalletTokens(root.fork("digital_wallet_token"), at, cardRows, demoSizes.digital_wallet_token),
      network_transfer: generateNetworkTransfers(root.fork("network_transfer"), at, world, calendar, demoSizes.network_transfer),
      fednow: generateFednowPayments(root.fork("fednow"), at, world, calendar, demoSizes.fednow),
    },
    *achBatches(batchSize = ACH_BATCH): Generator<AchRow[]> {
      for (let start = 0; start < achCount; start += batchSize) {
        const batch: AchRow[] = [];
        for (let index = start; index < Math.min(achCount, start + batchSize); index++) {
          batch.push(achGenerator.row(index, achCoverage[index]));
        }
        yield batch;
      }
    },
  };
}

/** SQL that drops and SQL that recreates each index and key of a table, as the database itself describes them. */
async function indexesOf(client: pg.ClientBase, table: PgTable): Promise<Array<{ drop: string; create: string }>> {
  const config = getTableConfig(table);
  const qualified = `"${config.schema}"."${config.name}"`;
  const { rows } = await client.query<{ kind: string; name: string; definition: string }>(
    `SELECT 'index' AS kind, indexname AS name, indexdef AS definition FROM pg_indexes i
       WHERE schemaname = $1 AND tablename = $2
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.connamespace = $1::regnamespace)
     UNION ALL
     SELECT 'constraint', conname, pg_get_constraintdef(oid) FROM pg_constraint c
       WHERE conrelid = $3::regclass AND contype IN ('p', 'u')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.confrelid = c.conrelid)`,
    [config.schema, config.name, qualified],
  );
  return rows.map((row) =>
    row.kind === "index"
      ? { drop: `DROP INDEX "${config.schema}"."${row.name}"`, create: row.definition }
      : {
          drop: `ALTER TABLE ${qualified} DROP CONSTRAINT "${row.name}"`,
          create: `ALTER TABLE ${qualified} ADD CONSTRAINT "${row.name}" ${row.definition}`,
        },
  );
}

/**
 * Inserts the ACH batches, generating the next batch while the database writes the previous one. For a large load
 * the table's indexes and keys are dropped first and rebuilt after (the same definitions, read from the catalog):
 * one sort per index instead of a million random insertions into each of them.
 */
async function loadAchTransfers(
  client: pg.ClientBase,
  batches: Iterable<AchRow[]>,
  rebuildIndexes: boolean,
): Promise<{ insertMs: number; indexMs: number }> {
  const started = performance.now();
  const indexes = rebuildIndexes ? await indexesOf(client, achTransfers) : [];
  for (const index of indexes) await client.query(index.drop);
  let writing: Promise<void> = Promise.resolve();
  for (const batch of batches) {
    await writing;
    writing = insertRows(client, achTransfers, batch);
  }
  await writing;
  const inserted = performance.now();
  if (indexes.length > 0) await client.query("SET LOCAL maintenance_work_mem = '256MB'");
  for (const index of indexes) await client.query(index.create);
  return { insertMs: Math.round(inserted - started), indexMs: Math.round(performance.now() - inserted) };
}

const seededTableNames = Object.values(seededTables).map((table) => {
  const config = getTableConfig(table);
  return `"${config.schema}"."${config.name}"`;
});

async function databaseIsEmpty(client: pg.ClientBase): Promise<boolean> {
  const probes = seededTableNames.map((name) => `EXISTS (SELECT 1 FROM ${name})`);
  const result = await client.query<{ taken: boolean }>(`SELECT ${probes.join(" OR ")} AS taken`);
  return !result.rows[0]?.taken;
}

/**
 * The instant a reset dates its data set from (sandbox/control/reset.ts): fixed, so every reset with the same seed
 * gives the same ids and the same times. A Tuesday at 10:00 in New York, the network open.
 */
export const resetEpoch = new Date("2026-01-06T15:00:00Z");

/** The largest set a reset loads: a million ACH transfers is the size the sandbox is measured at (docs/benchmarks.md). */
export const maxSeedAch = 1_000_000;

/**
 * Serializes whatever replaces the sandbox's data (seeding at start, reset, snapshot restore) in the calling
 * transaction: two sandboxes starting on one PostgreSQL database must not both seed it.
 */
export async function lockDataReplacement(client: pg.ClientBase): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('sandbox.seed'))");
}

/** The number of objects a set holds, by resource: the demo sizes with `ach` replaced. */
function seedCounts(seed: SeedName): SeedLoad["loaded"] {
  if (seed === "empty") return Object.fromEntries(Object.keys(demoSizes).map((resource) => [resource, 0])) as SeedLoad["loaded"];
  return { ...demoSizes, ach: seed === "demo" ? demoSizes.ach : seed };
}

/**
 * Inserts a data set dated relative to `now`, in the caller's transaction on `client` (which holds
 * lockDataReplacement): "empty" inserts nothing, "demo" the demo set, a number N the demo set with N ACH transfers
 * instead of its own. Seeded objects are history, not changes: they emit no events. Returns the objects loaded.
 */
export async function loadSeed(client: pg.ClientBase, seed: SeedName, now: Date): Promise<SeedLoad> {
  const loaded = seedCounts(seed);
  if (seed === "empty") return { loaded, insertMs: 0, indexMs: 0 };
  const achCount = loaded.ach;
  if (!Number.isInteger(achCount) || achCount < 0) throw new Error(`seed must be demo, empty or a whole number of ACH transfers, got ${seed}`);
  const data = generateSeedData(now, achCount);
  for (const [resource, rows] of Object.entries(data.rows)) {
    await insertRows(client, seededTables[resource as keyof typeof seededTables], rows);
  }
  return { loaded, ...(await loadAchTransfers(client, data.achBatches(), achCount >= REBUILD_INDEXES_FROM)) };
}

/** What loadSeed loaded (objects by resource) and how long the ACH transfers took (their rows, then their indexes). */
export interface SeedLoad {
  loaded: Record<keyof typeof demoSizes, number>;
  insertMs: number;
  indexMs: number;
}

/**
 * Loads a data set into an empty database at start (loadSeed, dated relative to the sandbox's clock). A database
 * that already holds any resource is left alone, so restarting a persisted sandbox keeps its data. One transaction:
 * a crash halfway leaves the database empty, to be seeded again.
 */
export async function seedDatabase(ctx: SandboxContext, seed: SeedName): Promise<void> {
  if (seed === "empty") return;
  const started = performance.now();
  const client = await ctx.database.pool.connect();
  try {
    await client.query("BEGIN");
    await lockDataReplacement(client);
    if (!(await databaseIsEmpty(client))) {
      await client.query("ROLLBACK");
      ctx.log.info({ seed }, "database already holds data: not seeding");
      return;
    }
    const { loaded, insertMs, indexMs } = await loadSeed(client, seed, ctx.now());
    await client.query("COMMIT");
    await analyzeSeededTables(client);
    ctx.log.info({ seed, ach: loaded.ach, ms: Math.round(performance.now() - started), insertMs, indexMs }, "seeded the sandbox database");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A bulk load leaves the planner without statistics (and PGlite has no autovacuum to gather them): a filtered list
 * then gets a bitmap plan reading every matching row (seconds at a million rows) instead of walking the keyset index
 * (under a millisecond). Run after the load commits.
 */
async function analyzeSeededTables(client: pg.ClientBase): Promise<void> {
  await client.query(`ANALYZE ${seededTableNames.join(", ")}`);
}
