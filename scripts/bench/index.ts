/**
 * `npm run bench:index`: the backfill of the console's index of the bank (lib/index/backfill.ts) from a sandbox bank
 * seeded with SANDBOX_SEED=1,000,000 ACH transfers (plus the demo set of every other list), on PGlite and on
 * PostgreSQL (when a server answers at BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres); PGlite
 * keeps its data on disk, as the console does (in memory, a million objects outgrew the machine).
 * Beside it, its ceiling: the same walk of every list through the same bank client, writing nothing. Reports objects
 * per second, the time, and the peak resident memory of this process (the backfill, and on PGlite the console's
 * embedded database too); then Home's exact counts over the index built (lib/home/index-counts.ts), checked against
 * every object grouped by status and timed beside that grouping; and the first page of 100 of the index-served ACH list
 * in the bank's order and sorted by amount, status and effective date (lib/search/index-list.ts: the first two walk
 * indexes of migration 0029, the last sorts every transfer). Markdown on stdout, progress on stderr. BENCH_ROWS
 * changes the seed size; BENCH_STORES=postgresql or pglite runs one store (a million objects take most of an hour on
 * PGlite).
 */
import type { BankClient, ListOperationId } from "@/lib/bank/client";
import { applyMigrations, connectDatabase, type Database } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import type { ScratchDatabase } from "@/lib/db/scratch-database";
import { indexCounts } from "@/lib/home/index-counts";
import { indexedResources, runBackfill } from "@/lib/index/backfill";
import { createLogger } from "@/lib/log";
import { listFromIndex } from "@/lib/search/index-list";
import { parseIndexListQuery } from "@/lib/search/index-list-input";
import { residentMemoryOfTree } from "../lib/services";
import { benchLog, stopChild, withScratchPglite, withScratchPostgresPair } from "./run";
import { startSeededSandbox } from "./seeded-sandbox";
import { timedRuns } from "./stats";

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const stores = (process.env.BENCH_STORES ?? "postgresql,pglite").split(",");
const pageSize = 1000;
const log = benchLog;
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
const report: string[] = [];
const row = (cells: (string | number)[]) => report.push(`| ${cells.join(" | ")} |`);

/** Peak resident memory of this process while `run` runs, sampled every 200 ms. */
async function withPeakMemory<T>(run: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  try {
    const result = await run();
    return { result, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(timer);
  }
}

/** Every object grouped by kind and status: how Home counted before the index kept its counts (migration 0023). */
const groupEveryObject = `
  SELECT resource, coalesce(state->>'status', '') AS status, count(*)::int AS objects
  FROM console.bank_objects WHERE environment = 'sandbox' AND state IS NOT NULL GROUP BY 1, 2`;

/**
 * Home's exact counts over the index just built (`indexCounts`, reading the kept counts), beside grouping every
 * object; the two must agree, object for object.
 */
async function homeCounts(database: Database<typeof schema>) {
  const kept = await indexCounts(database.db, "sandbox");
  const grouped = (await database.pool.query<{ resource: string; status: string; objects: number }>(groupEveryObject)).rows;
  const keptEntries = Object.values(kept.byStatus).reduce((sum, statuses) => sum + Object.keys(statuses).length, 0);
  const disagreeing = grouped.filter((row) => kept.byStatus[row.resource as keyof typeof kept.byStatus]?.[row.status] !== row.objects);
  if (disagreeing.length > 0 || keptEntries !== grouped.length) {
    throw new Error(`Home's kept counts disagree with the objects: ${JSON.stringify({ disagreeing, keptEntries, grouped: grouped.length })}`);
  }
  return {
    kept: await timedRuns(() => indexCounts(database.db, "sandbox"), 20),
    grouped: await timedRuns(() => database.pool.query(groupEveryObject), 5),
  };
}

/** The first page of 100 of the index-served ACH list in each order (p50 / p95 of 20 runs after a warm-up). */
async function sortedPages(database: Database<typeof schema>) {
  // With the statistics autovacuum gathers within a minute of a bulk load: right after the backfill the planner knows
  // nothing of the million rows and picks plans no running console would.
  await database.pool.query("ANALYZE console.bank_objects, console.bank_search");
  const sorts = ["", "-amount", "status", "-effective_date"];
  const times: Array<{ sort: string; p50: number; p95: number }> = [];
  for (const sort of sorts) {
    const page = parseIndexListQuery("ach", { ...(sort && { sort }), has_error: "false", page_size: "100" });
    if (!page.ok) throw new Error(page.error);
    times.push({ sort, ...(await timedRuns(() => listFromIndex(database.db, "sandbox", "ach", page.page), 20)) });
  }
  return times;
}

/** The ceiling: every page of every list read through the bank client, nothing written. */
async function walkOnly(client: BankClient): Promise<number> {
  let objects = 0;
  for (const resource of indexedResources) {
    for await (const page of client.pages(`list_${resource}` as ListOperationId, { page_size: pageSize })) objects += page.data.length;
  }
  return objects;
}

async function benchStore(name: string, sandboxDatabase: ScratchDatabase | undefined, consoleDatabase: ScratchDatabase) {
  log(`${name}: seeding ${rows.toLocaleString("en-US")} ACH transfers and starting the sandbox bank...`);
  const { child: sandbox, client, readyMs } = await startSeededSandbox(rows, sandboxDatabase?.url);
  try {
    log(`${name}: sandbox ready after ${(readyMs / 1000).toFixed(0)} s`);

    const ceilingStarted = performance.now();
    const walked = await walkOnly(client);
    const ceilingSeconds = (performance.now() - ceilingStarted) / 1000;
    log(`${name}: ceiling walked ${walked} objects in ${ceilingSeconds.toFixed(1)} s`);

    const database = connectDatabase(consoleDatabase.url, schema);
    await applyMigrations(database, "drizzle/console", "console");
    const started = performance.now();
    const { result, peak } = await withPeakMemory(() =>
      runBackfill({ db: database.db, client, environment: "sandbox", pageSize, pagesPerSecond: 0, log: createLogger({ level: "warn" }) }),
    );
    const seconds = (performance.now() - started) / 1000;
    const [{ count }] = (await database.pool.query("SELECT count(*)::int AS count FROM console.bank_objects")).rows as [{ count: number }];
    log(`${name}: backfill ${result}, ${count} objects in ${seconds.toFixed(1)} s`);
    if (result !== "done" || count !== walked) throw new Error(`${name}: the index holds ${count} objects, the bank listed ${walked} (${result})`);
    const home = await homeCounts(database);
    const sorted = await sortedPages(database);
    await database.close();

    report.push("", `### ${name}: ${walked.toLocaleString("en-US")} objects (${rows.toLocaleString("en-US")} ACH transfers + the demo set)`, "");
    row(["walk", "time", "objects/s", "vs ceiling", "peak memory (this process)", "sandbox memory"]);
    row(["---", "---:", "---:", "---:", "---:", "---:"]);
    const sandboxMemory = mib(residentMemoryOfTree(sandbox.pid!));
    row([
      "ceiling: every page read, nothing written",
      `${ceilingSeconds.toFixed(1)} s`,
      Math.round(walked / ceilingSeconds),
      "1.00x",
      "",
      sandboxMemory,
    ]);
    row([
      "backfill into the index",
      `${seconds.toFixed(1)} s`,
      Math.round(count / seconds),
      `${(ceilingSeconds / seconds).toFixed(2)}x`,
      mib(peak),
      sandboxMemory,
    ]);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    report.push(
      "",
      `Home's exact counts over this index (p50 / p95): read from the kept counts ${ms(home.kept.p50)} / ${ms(home.kept.p95)}; ` +
        `every object grouped by status, as before migration 0023, ${ms(home.grouped.p50)} / ${ms(home.grouped.p95)}. The two agree.`,
      "",
      "The index-served ACH list without an error, first page of 100 (p50 / p95): " +
        sorted.map(({ sort, p50, p95 }) => `${sort ? `\`sort=${sort}\`` : "the bank's order"} ${ms(p50)} / ${ms(p95)}`).join("; ") +
        ".",
    );
  } finally {
    await stopChild(sandbox);
  }
}

report.push(`## Index backfill (${new Date().toISOString().slice(0, 10)}, page size ${pageSize}, no pace limit)`);
// PostgreSQL first: this process's resident memory then starts clean (an embedded PGlite's memory is not returned
// to the system when it closes).
if (stores.includes("postgresql"))
  await withScratchPostgresPair("bench_index", (databases) => benchStore("PostgreSQL", databases.sandbox, databases.console));
if (stores.includes("pglite")) await withScratchPglite((database) => benchStore("PGlite", undefined, database));
console.log(report.join("\n"));
process.exit(0);
