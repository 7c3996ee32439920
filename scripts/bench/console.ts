/**
 * `npm run bench:console`: what the console's `/api/bank/...` proxy costs per request, side by side in one run with
 * the sandbox bank direct and the ceiling (a bare Next.js route that only forwards the request to the sandbox bank:
 * scripts/bench/forward-app, built and started here only). Three requests (a 50-row ACH list, one ACH transfer, a
 * 50-row masked person-application list), signed in as the demo viewer, at 1, 10 and 50 connections; the console's
 * store on PGlite (one embedded database shared with the sandbox bank, as `npm start` runs it) and on PostgreSQL
 * (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres). Prints a Markdown report on stdout.
 * For each store the ceiling and the console are started afresh and given the same warm-up (BENCH_WARMUP_SECONDS per
 * request, default 10, at 10 connections) before anything is measured: a freshly started Next.js server spends up to
 * twice the CPU per request in its first minute of load (JIT, heap growth), so comparing a warm server with a cold one
 * measures the start, not the route. Within a cell the servers take turns in short slices (loadCell).
 * For profiling one cell: BENCH_CONNECTIONS=10 BENCH_STORES=postgres BENCH_REQUESTS=list (a part of the request's name);
 * a partial run prints its figures but leaves docs/benchmarks.md alone.
 */
import type { ChildProcess } from "node:child_process";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { readEnv } from "@/lib/env/read-env";
import { sandboxEnvSchema } from "@/lib/env/schema";
import { ensureConsoleBuilt } from "../lib/build";
import {
  benchLog,
  cpuSecondsOfTree,
  firstJsonLine,
  type LoadResult,
  sandboxBankAuthorization,
  scratchPostgres,
  startChild,
  stopChild,
  waitForHealth,
} from "./run";
import { percentile } from "./stats";
import { viewerSessionCookie } from "./session-cookie";

/** A whole number of seconds from the environment; anything else stops the bench naming the variable. */
function secondsFromEnv(name: string, fallback: number, minimum: number): number {
  const text = process.env[name];
  if (text === undefined) return fallback;
  if (!/^\d{1,4}$/.test(text) || Number(text) < minimum)
    throw new Error(`${name}: "${text}" is not a whole number of seconds from ${minimum} to 9999`);
  return Number(text);
}
const seconds = secondsFromEnv("BENCH_SECONDS", 8, 1);
const warmUpSeconds = secondsFromEnv("BENCH_WARMUP_SECONDS", 10, 0);
/** A comma-separated list from the environment, each item checked; a wrong one stops the bench naming it. */
function listFromEnv<T>(name: string, fallback: string, parse: (item: string) => T | undefined, expected: string): T[] {
  return (process.env[name] ?? fallback).split(",").map((item) => {
    const parsed = parse(item.trim());
    if (parsed === undefined) throw new Error(`${name}: "${item}" is not ${expected}`);
    return parsed;
  });
}
const connectionCounts = listFromEnv(
  "BENCH_CONNECTIONS",
  "1,10,50",
  (item) => (/^[1-9]\d{0,3}$/.test(item) ? Number(item) : undefined),
  "a connection count from 1 to 9999",
);
const stores = listFromEnv(
  "BENCH_STORES",
  "pglite,postgres",
  (item) => (item === "pglite" || item === "postgres" ? item : undefined),
  "pglite or postgres",
);
const requestFilter = process.env.BENCH_REQUESTS ?? "";
const partial = Boolean(process.env.BENCH_CONNECTIONS || process.env.BENCH_STORES || requestFilter);
// Ports of this project's bench range (console 32xx, sandbox 42xx), apart from `npm start` and the e2e suite.
const ports = {
  sandbox: Number(process.env.BENCH_SANDBOX_PORT ?? 4210),
  console: Number(process.env.BENCH_CONSOLE_PORT ?? 3210),
  forward: Number(process.env.BENCH_FORWARD_PORT ?? 3211),
};
const { BANK_API_KEY_ID, BANK_API_KEY_SECRET } = readEnv(sandboxEnvSchema);
const bankAuth = { authorization: sandboxBankAuthorization };
const node = process.execPath;
const nextBin = path.resolve("node_modules/.bin/next");
const forwardApp = "scripts/bench/forward-app";
const workDir = mkdtempSync(path.join(tmpdir(), "bench-console-"));
const log = benchLog;
/**
 * A directory: the console and the ceiling run under `node --cpu-prof` and each writes a profile there per store
 * (profile-summary.ts reads them; the console's holds `api/bank`, the ceiling's `forward-app`).
 */
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const profiling = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`] : [];

interface Target {
  url: string;
  headers: Record<string, string>;
  server: ChildProcess;
}

/**
 * One autocannon run on `target`, with the CPU its server spent meanwhile and the latency of every 2xx answer in
 * fractional milliseconds: autocannon's own percentiles come in whole milliseconds, which at one connection turns
 * 3.4 against 3.6 ms into 3 against 4 (a 1.33x that is not there).
 */
async function slice(target: Target, connections: number, duration: number) {
  const cpuBefore = cpuSecondsOfTree(target.server.pid);
  const latencies: number[] = [];
  // Without a callback autocannon returns its instance (an event emitter) made thenable; its types say Promise only.
  const run = autocannon({ url: target.url, headers: target.headers, connections, duration }) as unknown as autocannon.Instance &
    Promise<autocannon.Result>;
  run.on("response", (_client, status, _bytes, milliseconds) => {
    if (status >= 200 && status < 300) latencies.push(milliseconds);
  });
  const result = await run;
  const cpuAfter = cpuSecondsOfTree(target.server.pid);
  return { result, latencies, cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

/**
 * One cell: the targets measured in turn in `slices` alternating runs rather than one long run each, so that the
 * machine's speed changing during the cell (seen on this shared VM: the ceiling at 358 and 466 req/s in two
 * consecutive runs) hits every target alike. Per target: req/s and CPU per request over all its slices, p50 and p99
 * over the 2xx answers of all its slices.
 */
async function loadCell<T extends Target[]>(targets: [...T], connections: number): Promise<{ [K in keyof T]: LoadResult }> {
  for (const target of targets) await autocannon({ url: target.url, headers: target.headers, connections, duration: 2 });
  const slices = Math.min(seconds, 4);
  const runs = targets.map(() => [] as Awaited<ReturnType<typeof slice>>[]);
  for (let round = 0; round < slices; round++) {
    for (const [index, target] of targets.entries()) runs[index]!.push(await slice(target, connections, seconds / slices));
  }
  return runs.map((measured): LoadResult => {
    const requests = measured.reduce((sum, run) => sum + run.result.requests.total, 0);
    const duration = measured.reduce((sum, run) => sum + run.result.duration, 0);
    const cpuSeconds = measured.every((run) => run.cpuSeconds !== null) ? measured.reduce((sum, run) => sum + run.cpuSeconds!, 0) : null;
    const latencies = measured.flatMap((run) => run.latencies);
    return {
      cpuMsPerRequest: cpuSeconds === null ? null : (cpuSeconds * 1000) / Math.max(requests, 1),
      mean: latencies.reduce((sum, value) => sum + value, 0) / Math.max(latencies.length, 1),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      requestsPerSecond: requests / duration,
      non2xx: measured.reduce((sum, run) => sum + run.result.non2xx + run.result.errors + run.result.timeouts, 0),
    };
  }) as { [K in keyof T]: LoadResult };
}

/** The same load on both servers before measuring anything: each request in turn, at 10 connections. */
async function warmUp(targets: { url: string; headers: Record<string, string> }[], paths: string[]) {
  if (warmUpSeconds <= 0) return;
  log(`warming up the ceiling and the console (${warmUpSeconds} s per request each)...`);
  for (const requestPath of paths) {
    for (const target of targets)
      await autocannon({ url: `${target.url}${requestPath}`, headers: target.headers, connections: 10, duration: warmUpSeconds });
  }
}

function buildForwardApp() {
  log("building the forwarding app (the ceiling)...");
  const built = spawnSync(nextBin, ["build", forwardApp], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (built.status !== 0) throw new Error("next build of the forwarding app failed");
}

/** A child whose stdout is not read by the bench (the console logs every request): drained, not kept. */
function drained(child: ChildProcess): ChildProcess {
  child.stdout?.resume();
  return child;
}

interface Request {
  name: string;
  path: string;
}

async function requests(sandboxUrl: string): Promise<Request[]> {
  const page = (await (await fetch(`${sandboxUrl}/ach?page_size=1`, { headers: bankAuth })).json()) as { data: { id: string }[] };
  const all = [
    { name: "ACH list, 50 rows", path: "/ach?page_size=50" },
    { name: "one ACH transfer", path: `/ach/${page.data[0]!.id}` },
    { name: "person applications, 50 rows, masked", path: "/apply/person_application?page_size=50" },
  ];
  return all.filter((request) => request.name.includes(requestFilter));
}

const report: string[] = [];
const row = (cells: (string | number)[]) => report.push(`| ${cells.join(" | ")} |`);
const cpu = (result: LoadResult) => (result.cpuMsPerRequest == null ? "n/a" : `${result.cpuMsPerRequest.toFixed(2)} ms`);
// One cell per server: p50 / p99, throughput, CPU per request, and any answer that was not a 2xx.
const cells = (result: LoadResult) =>
  `${result.p50.toFixed(1)} / ${result.p99.toFixed(1)} ms, ${Math.round(result.requestsPerSecond)}/s, ${cpu(result)}` +
  (result.non2xx > 0 ? `, **${result.non2xx} non-2xx**` : "");
// NaN (nothing answered within the run) fails both comparisons.
const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

/** `next start` for the app in `directory` (the console: the project root), under the profiler when asked. */
function startNext(directory: string[], port: number, env: Record<string, string>): ChildProcess {
  const next = path.resolve("node_modules/next/dist/bin/next");
  const args = [...profiling, next, "start", ...directory, "-p", String(port), "-H", "127.0.0.1"];
  return drained(startChild(node, args, { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env }));
}

async function benchStore(store: string, consoleDatabaseUrl: string, servers: { sandbox: ChildProcess; sandboxUrl: string }) {
  const { sandboxUrl } = servers;
  const consoleUrl = `http://127.0.0.1:${ports.console}`;
  const forwardUrl = `http://127.0.0.1:${ports.forward}`;
  const forward = startNext([forwardApp], ports.forward, { FORWARD_TO: sandboxUrl, BANK_API_KEY_ID, BANK_API_KEY_SECRET });
  const consoleChild = startNext([], ports.console, {
    AUTH_SECRET: randomBytes(32).toString("base64"),
    // As `npm start` gives it (scripts/lib/local-secrets.ts): the console then looks for saved credentials too.
    CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_TRUST_HOST: "true",
    DATABASE_URL: consoleDatabaseUrl,
    DATA_ROOT: workDir,
    PORT: String(ports.console),
    SANDBOX_PORT: String(ports.sandbox),
  });
  await waitForHealth(`${forwardUrl}/ach?page_size=1`, forward, 60_000);
  await waitForHealth(`${consoleUrl}/api/health`, consoleChild, 120_000);
  const cookie = await viewerSessionCookie(consoleUrl);
  const measured = await requests(sandboxUrl);
  await warmUp(
    [
      { url: forwardUrl, headers: {} },
      { url: `${consoleUrl}/api/bank`, headers: { cookie } },
    ],
    measured.map((request) => request.path),
  );

  for (const request of measured) {
    for (const connections of connectionCounts) {
      const [direct, ceiling, ours] = await loadCell(
        [
          { url: `${sandboxUrl}${request.path}`, headers: bankAuth, server: servers.sandbox },
          { url: `${forwardUrl}${request.path}`, headers: {}, server: forward },
          { url: `${consoleUrl}/api/bank${request.path}`, headers: { cookie }, server: consoleChild },
        ],
        connections,
      );
      const throughput = ours.requestsPerSecond / ceiling.requestsPerSecond;
      const latency = ours.requestsPerSecond > 0 ? ours.p50 / ceiling.p50 : Number.NaN;
      row([
        store,
        request.name,
        connections,
        cells(direct),
        cells(ceiling),
        cells(ours),
        `${throughput.toFixed(2)}x ${verdict(throughput >= 0.8)}, ${latency.toFixed(2)}x ${verdict(latency <= 1.3)}`,
      ]);
      log(
        `${store}: ${request.name} at ${connections} connections: console ${Math.round(ours.requestsPerSecond)} req/s, ceiling ${Math.round(ceiling.requestsPerSecond)} req/s`,
      );
    }
  }
  await stopChild(consoleChild);
  await stopChild(forward);
}

/** Replaces the previous run's figures in docs/benchmarks.md (between the markers) with this run's. */
function writeIntoDocs(figures: string) {
  const file = "docs/benchmarks.md";
  const [start, end] = ["<!-- bench:console figures start -->", "<!-- bench:console figures end -->"];
  const docs = readFileSync(file, "utf8");
  const from = docs.indexOf(start);
  const to = docs.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} lacks the markers ${start} ... ${end}`);
  writeFileSync(file, `${docs.slice(0, from + start.length)}\n${figures}\n${docs.slice(to)}`);
  log(`figures written to ${file}`);
}

try {
  ensureConsoleBuilt();
  buildForwardApp();
  // One embedded PGlite in its own process, shared by the sandbox bank and (first) the console, as `npm start` does.
  const dbHost = startChild(node, ["--import", "tsx", "scripts/bench/embedded-db.ts", path.join(workDir, "pglite")], {});
  const { url: embeddedUrl } = await firstJsonLine<{ url: string }>(dbHost);
  const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
  const sandbox = startChild(node, ["--import", "tsx", "sandbox/main.ts"], {
    SANDBOX_DATABASE_URL: embeddedUrl,
    SANDBOX_PORT: String(ports.sandbox),
    SANDBOX_SEED: "demo",
    SANDBOX_LIFECYCLE: "off",
    LOG_LEVEL: "warn",
  });
  await waitForHealth(`${sandboxUrl}/health`, sandbox, 120_000);
  report.push(
    `${new Date().toISOString().slice(0, 10)}: ${seconds} s per server and cell, in ${Math.min(seconds, 4)} alternating slices after 2 s warm-up; ceiling and console started afresh per store and each warmed up ${warmUpSeconds} s per request first; signed in as the demo viewer; the sandbox bank on PGlite. Each server: p50 / p99, req/s, its CPU per request.`,
    "",
  );
  row([
    "console store",
    "request",
    "connections",
    "sandbox bank direct",
    "ceiling: bare Next.js forwarding route",
    "console /api/bank",
    "vs ceiling: req/s (≥ 0.8x), p50 (≤ 1.3x)",
  ]);
  row(["---", "---", "---:", "---:", "---:", "---:", "---"]);
  if (stores.includes("pglite")) await benchStore("PGlite (shared with the bank)", embeddedUrl, { sandbox, sandboxUrl });
  const postgres = stores.includes("postgres") ? await scratchPostgres("bench_console") : undefined;
  if (postgres) {
    await benchStore("PostgreSQL 15", postgres.url, { sandbox, sandboxUrl });
    await postgres.drop();
  }
  await stopChild(sandbox);
  await stopChild(dbHost);
  console.log(report.join("\n"));
  if (!partial) writeIntoDocs(report.join("\n"));
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
