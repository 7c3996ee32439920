/**
 * `npm run bench:export`: the console's CSV export of every ACH transfer of a sandbox bank seeded with 10,000 and then
 * 100,000 of them (BENCH_EXPORT_ROWS, comma-separated), through the export code path in a process of its own
 * (scripts/bench/export-server.ts: the real route handler, bank client and audit trail, over HTTP). Reports rows,
 * seconds, rows/s, and the peak resident memory and heap of the exporting process sampled every 20 ms during the
 * export, beside its memory at rest before it. Databases on PostgreSQL when a server answers at BENCH_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres), else embedded PGlite. Ports: sandbox 4540, exporter 3540
 * (BENCH_SANDBOX_PORT, BENCH_EXPORT_PORT). Prints a Markdown report on stdout (progress goes to stderr).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRecordCounter } from "@/lib/csv/record-counter";
import { createScratchDatabase, type ScratchDatabase } from "@/lib/db/scratch-database";
import { readEnv } from "@/lib/env/read-env";
import { sandboxEnvSchema } from "@/lib/env/schema";
import { firstJsonLine, startChild, stopChild, waitForHealth } from "./run";

const sizes = (process.env.BENCH_EXPORT_ROWS ?? "10000,100000").split(",").map(Number);
const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4540);
const exportPort = Number(process.env.BENCH_EXPORT_PORT ?? 3540);
const postgresAdminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const { BANK_API_KEY_ID, BANK_API_KEY_SECRET } = readEnv(sandboxEnvSchema);
const node = process.execPath;
const script = (file: string, ...args: string[]) => ["--import", "tsx", file, ...args];
const workDir = mkdtempSync(path.join(tmpdir(), "bench-export-"));
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

async function postgresReachable(): Promise<boolean> {
  try {
    await (await createScratchDatabase(postgresAdminUrl, "bench_export_probe")).drop();
    return true;
  } catch (error) {
    log(`PostgreSQL not usable at ${postgresAdminUrl} (${error instanceof Error ? error.message : error}): using PGlite`);
    return false;
  }
}

/** A database for one child: a scratch PostgreSQL database, or a PGlite hosted in a process of its own. */
async function database(usePostgres: boolean, name: string): Promise<{ url: string; close(): Promise<void> }> {
  if (usePostgres) {
    const scratch: ScratchDatabase = await createScratchDatabase(postgresAdminUrl, name);
    return { url: scratch.url, close: () => scratch.drop() };
  }
  const host = startChild(node, script("scripts/bench/embedded-db.ts", path.join(workDir, name)), {});
  const { url } = await firstJsonLine<{ url: string }>(host);
  return { url, close: () => stopChild(host) };
}

interface Run {
  rows: number;
  seconds: number;
  bytes: number;
  restRss: number;
  restHeap: number;
  peakRss: number;
  peakHeap: number;
}

async function exportAll(size: number, usePostgres: boolean): Promise<Run> {
  log(`seeding ${size.toLocaleString("en-US")} ACH transfers and starting the sandbox bank on ${sandboxPort}...`);
  // Named after the size: a PGlite data directory left by the previous size would not be seeded again.
  const bankDb = await database(usePostgres, `bench_export_sandbox_${size}`);
  const sandbox = startChild(node, script("sandbox/main.ts"), {
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_SEED: String(size),
    SANDBOX_LIFECYCLE: "off",
    LOG_LEVEL: "warn",
    SANDBOX_DATABASE_URL: bankDb.url,
  });
  const bankUrl = `http://127.0.0.1:${sandboxPort}`;
  await waitForHealth(`${bankUrl}/health`, sandbox, 10 * 60_000);

  const auditDb = await database(usePostgres, `bench_export_console_${size}`);
  const exporter = startChild(node, script("scripts/bench/export-server.ts"), {
    BANK_URL: bankUrl,
    BANK_API_KEY_ID,
    BANK_API_KEY_SECRET,
    DATABASE_URL: auditDb.url,
    PORT: String(exportPort),
    LOG_LEVEL: "warn",
  });
  await firstJsonLine<{ port: number }>(exporter);
  const exporterUrl = `http://127.0.0.1:${exportPort}`;
  const peaks = async () => (await (await fetch(`${exporterUrl}/peaks`)).json()) as { rss: number; heapUsed: number };
  // Let start-up garbage settle, then take the memory at rest (this also starts the peaks over).
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const rest = await peaks();

  log(`exporting ${size.toLocaleString("en-US")} rows...`);
  const started = performance.now();
  const response = await fetch(`${exporterUrl}/api/export/ach`);
  if (!response.ok || !response.body) throw new Error(`export answered ${response.status}: ${await response.text()}`);
  const counter = createRecordCounter();
  let records = 0;
  let bytes = 0;
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    records = counter.push(chunk.value);
    bytes += chunk.value.byteLength;
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = await peaks();
  const rows = records - 1;
  if (rows !== size) throw new Error(`exported ${rows} rows, expected ${size}`);

  await stopChild(exporter);
  await auditDb.close();
  await stopChild(sandbox);
  await bankDb.close();
  return { rows, seconds, bytes, restRss: rest.rss, restHeap: rest.heapUsed, peakRss: peak.rss, peakHeap: peak.heapUsed };
}

try {
  const usePostgres = await postgresReachable();
  const runs: Run[] = [];
  for (const size of sizes) runs.push(await exportAll(size, usePostgres));
  const report = [
    `## Console: CSV export of every ACH transfer (${new Date().toISOString().slice(0, 10)}, databases on ${usePostgres ? "PostgreSQL" : "PGlite"})`,
    "",
    "| rows | CSV | seconds | rows/s | exporter RSS at rest | exporter peak RSS | exporter heap at rest | exporter peak heap |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...runs.map(
      (run) =>
        `| ${run.rows.toLocaleString("en-US")} | ${(run.bytes / 1024 / 1024).toFixed(1)} MiB | ${run.seconds.toFixed(1)} | ${Math.round(run.rows / run.seconds).toLocaleString("en-US")} | ` +
        `${mib(run.restRss)} | ${mib(run.peakRss)} | ${mib(run.restHeap)} | ${mib(run.peakHeap)} |`,
    ),
  ];
  console.log(report.join("\n"));
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
