/**
 * `npm run bench:sandbox`: GET /ach?page_size=100 on 1,000,000 ACH transfers, on PGlite and on PostgreSQL (when a
 * server answers at BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), first page, a page
 * 10,000 pages deep and two filters; beside the ceiling (bare node:http, same SQL, same driver) and Stoplight
 * Prism mocking the same operation from our OpenAPI document. Also the resident memory of the sandbox process with
 * the demo seed and with 1,000,000 rows. Prints a Markdown report on stdout (progress goes to stderr).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createScratchDatabase, type ScratchDatabase } from "@/lib/db/scratch-database";
import { residentMemoryOfTree } from "../lib/services";
import { firstJsonLine, freePort, measure, sandboxBankAuthorization, startChild, stopChild, waitForHealth, type LoadResult } from "./run";

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const pageSize = 100;
const deepPage = Math.min(10_000, Math.floor(rows / pageSize));
const postgresAdminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const auth = { authorization: sandboxBankAuthorization };
// One process per child (no tsx wrapper process in between), so stopping a child stops what it runs.
const node = process.execPath;
const script = (file: string, ...args: string[]) => ["--import", "tsx", file, ...args];
const workDir = mkdtempSync(path.join(tmpdir(), "bench-sandbox-"));
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** Starts the sandbox bank as `npm run sandbox` does (sandbox/main.ts under tsx) and waits until it answers; returns it and its URL. */
async function startSandbox(env: Record<string, string>) {
  const port = env.SANDBOX_PORT ? Number(env.SANDBOX_PORT) : await freePort();
  const child = startChild(node, script("sandbox/main.ts"), { SANDBOX_LIFECYCLE: "off", LOG_LEVEL: "warn", ...env, SANDBOX_PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  const readyAfterMs = await waitForHealth(`${url}/health`, child, 30 * 60_000);
  return { child, url, port, readyAfterMs };
}

interface Scenario {
  name: string;
  query: string;
}

async function scenarios(databaseUrl: string): Promise<Scenario[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // Settle the fresh million rows first, so no autovacuum pass or checkpoint of the load runs mid-measurement.
  await client.query("VACUUM ANALYZE sandbox.ach");
  await client.query("CHECKPOINT");
  // Set-up only: find the id that ends page `deepPage - 1`, so the measured request asks for page `deepPage`.
  const { rows: cursorRows } = await client.query("SELECT id FROM sandbox.ach ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 1", [
    (deepPage - 1) * pageSize - 1,
  ]);
  await client.end();
  return [
    { name: "first page", query: `page_size=${pageSize}` },
    { name: `page ${deepPage.toLocaleString("en-US")} (deep)`, query: `page_size=${pageSize}&page_cursor=${cursorRows[0].id}` },
    { name: "two filters (status, direction)", query: `page_size=${pageSize}&status=sent&direction=credit` },
  ];
}

const report: string[] = [];
const row = (cells: (string | number)[]) => report.push(`| ${cells.join(" | ")} |`);
const fmt = (result: LoadResult) => [
  `${result.mean.toFixed(1)} ms`,
  `${result.p50} ms`,
  `${result.p99} ms`,
  Math.round(result.requestsPerSecond),
  result.non2xx,
];

async function benchBackend(name: string, databaseUrl: string, prismUrl: string) {
  log(`${name}: seeding ${rows.toLocaleString("en-US")} ACH transfers and starting the sandbox bank...`);
  const sandbox = await startSandbox({ SANDBOX_DATABASE_URL: databaseUrl, SANDBOX_SEED: String(rows) });
  log(`${name}: ready after ${(sandbox.readyAfterMs / 1000).toFixed(1)} s (seed included)`);
  const ceilingChild = startChild(node, script("scripts/bench/ceiling-server.ts"), { DATABASE_URL: databaseUrl, PORT: "0" });
  const ceiling = `http://127.0.0.1:${(await firstJsonLine<{ port: number }>(ceilingChild)).port}`;

  report.push("", `### ${name}: ${rows.toLocaleString("en-US")} ACH transfers (seed + start: ${(sandbox.readyAfterMs / 1000).toFixed(0)} s)`, "");
  row(["request", "server", "mean", "p50", "p99", "req/s", "non-2xx", "req/s vs ceiling"]);
  row(["---", "---", "---:", "---:", "---:", "---:", "---:", "---:"]);
  const ours: LoadResult[] = [];
  for (const scenario of await scenarios(databaseUrl)) {
    const sandboxResult = await measure(`${sandbox.url}/ach?${scenario.query}`, auth, seconds);
    const bare = await measure(`${ceiling}/ach?${scenario.query}`, {}, seconds);
    row([scenario.name, "sandbox bank", ...fmt(sandboxResult), `${(sandboxResult.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}x`]);
    row([scenario.name, "ceiling (node:http + same SQL)", ...fmt(bare), "1.00x"]);
    const peer = await measure(`${prismUrl}/ach?${scenario.query}`, auth, seconds);
    row([scenario.name, "Stoplight Prism 5.14.2 (mock)", ...fmt(peer), `${(peer.requestsPerSecond / bare.requestsPerSecond).toFixed(2)}x`]);
    ours.push(sandboxResult);
    log(`${name}: ${scenario.name} done`);
  }
  const [first, deep] = ours as [LoadResult, LoadResult];
  report.push(
    "",
    `Deep page / first page on ${name}: mean latency ${(deep.mean / first.mean).toFixed(2)}x, ` +
      `throughput ${(deep.requestsPerSecond / first.requestsPerSecond).toFixed(2)}x (target: latency ≤ 1.2x).`,
  );
  await stopChild(ceilingChild);
  await stopChild(sandbox.child);
}

async function startPrism(openApi: string) {
  const file = path.join(workDir, "openapi.json");
  writeFileSync(file, openApi);
  const port = await freePort();
  const child = startChild(path.resolve("node_modules/.bin/prism"), ["mock", file, "-h", "127.0.0.1", "-p", String(port)], {});
  child.stdout?.on("data", () => {});
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    try {
      await fetch(`${url}/ach`, { headers: auth });
      return { child, url };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error("Prism did not start within 60 s");
}

async function postgresDatabase(): Promise<ScratchDatabase | undefined> {
  try {
    return await createScratchDatabase(postgresAdminUrl, "bench_sandbox");
  } catch (error) {
    log(`PostgreSQL not usable at ${postgresAdminUrl} (${error instanceof Error ? error.message : error}): skipping it`);
    return undefined;
  }
}

try {
  report.push(`## Sandbox bank: GET /ach (${new Date().toISOString().slice(0, 10)}, ${seconds} s per measurement, 10 connections)`);

  // Memory with the demo seed: the sandbox as `npm run sandbox` runs it, with its own in-process PGlite.
  const demo = await startSandbox({ SANDBOX_DATA: "memory", SANDBOX_SEED: "demo" });
  const demoMemory = residentMemoryOfTree(demo.child.pid!);
  const openApi = await (await fetch(`${demo.url}/openapi.json`, { headers: auth })).text();
  await stopChild(demo.child);
  // Prism mocks GET /ach from our generated OpenAPI document; it keeps no data, so one instance serves every backend.
  const prism = await startPrism(openApi);

  // PGlite: one embedded database in its own process, so the sandbox and the ceiling reach it the same way.
  const sandboxPort = await freePort();
  const pgliteDir = path.join(workDir, `sandbox-${sandboxPort}`);
  const dbHost = startChild(node, script("scripts/bench/embedded-db.ts", pgliteDir), {});
  const { url: pgliteUrl } = await firstJsonLine<{ url: string }>(dbHost);
  await benchBackend("PGlite", pgliteUrl, prism.url);
  await stopChild(dbHost);
  log("PGlite: measuring the memory of a standalone sandbox on the same data...");

  // Memory with 1,000,000 rows: the same data directory opened by a standalone sandbox (in-process PGlite).
  const big = await startSandbox({ SANDBOX_PORT: String(sandboxPort), DATA_ROOT: workDir, SANDBOX_DATA: "disk", SANDBOX_SEED: String(rows) });
  const bigMemory = residentMemoryOfTree(big.child.pid!);
  log(`standalone sandbox ready after ${(big.readyAfterMs / 1000).toFixed(1)} s`);
  await stopChild(big.child);

  const postgres = await postgresDatabase();
  if (postgres) {
    await benchBackend("PostgreSQL", postgres.url, prism.url);
    await postgres.drop();
  }
  await stopChild(prism.child);

  report.push(
    "",
    "### Resident memory of the sandbox process (tsx sandbox/main.ts, in-process PGlite)",
    "",
    "| data | resident memory |",
    "| --- | ---: |",
    `| demo seed (in memory) | ${mib(demoMemory)} |`,
    `| ${rows.toLocaleString("en-US")} ACH transfers (on disk) | ${mib(bigMemory)} |`,
  );
  console.log(report.join("\n"));
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
