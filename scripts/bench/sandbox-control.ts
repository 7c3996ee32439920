/**
 * `npm run bench:sandbox-control`: the sandbox bank's control API as a test suite uses it, over HTTP, on embedded
 * PGlite (on disk, as `npm run sandbox` keeps it) and on PostgreSQL (when a server answers at BENCH_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/postgres). BENCH_STORES=pglite or =postgresql runs one store.
 *
 * - `POST /sandbox/reset {"seed": "demo"}` (target < 1 s);
 * - `GET` and `PUT /sandbox/snapshot` of the demo set (target < 2 s each) and of BENCH_LARGE (100,000) objects: the
 *   demo set with as many ACH transfers as make that total (target < 30 s each);
 * - a transition's request to its webhook delivered (target p95 < 100 ms): BENCH_TRANSITIONS (200) ACH transfers
 *   returned with R01 one at a time, each timed until a receiver on 127.0.0.1 has its notifications
 *   (scripts/bench/transition-delivery.ts), with the sandbox's own webhook settings (SANDBOX_WEBHOOK_POLL_MS).
 *
 * Each timed measurement runs BENCH_RUNS (5) times after one unmeasured run (BENCH_LARGE_RUNS, 2, for the large set)
 * and reports the median and the slowest. A measurement is one entry of `measurements`: add one there.
 * BENCH_MEASURE (default every one: reset,snapshot,large,transition) picks some. Markdown on stdout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readEnv } from "@/lib/env/read-env";
import { sandboxEnvSchema } from "@/lib/env/schema";
import { createLogger } from "@/lib/log";
import { defaultSandboxSettings } from "@/sandbox/context";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { demoSizes } from "@/sandbox/seed";
import { benchLog, scratchPostgres } from "./run";
import { median, percentile } from "./stats";
import { measureTransitionDelivery } from "./transition-delivery";

const runs = Number(process.env.BENCH_RUNS ?? 5);
const largeRuns = Number(process.env.BENCH_LARGE_RUNS ?? 2);
const largeObjects = Number(process.env.BENCH_LARGE ?? 100_000);
const stores = (process.env.BENCH_STORES ?? "pglite,postgresql").split(",");
const transitions = Number(process.env.BENCH_TRANSITIONS ?? 200);
const chosen = (process.env.BENCH_MEASURE ?? "reset,snapshot,large,transition").split(",");
/** The delivery worker's poll interval as the sandbox reads it from its environment (default 200 ms). */
const pollIntervalMs = readEnv(sandboxEnvSchema).SANDBOX_WEBHOOK_POLL_MS;
const key = { id: "key_bench_control", secret: "bench-control-secret-0123456789" };
const demoObjects = Object.values(demoSizes).reduce((sum, size) => sum + size, 0);
const largeSeed = largeObjects - (demoObjects - demoSizes.ach);

/** A request to the bank with the bench's key: its status and text. */
type Request = (
  path: string,
  init?: { method?: string; body?: string; headers?: Record<string, string>; json?: unknown },
) => Promise<{ status: number; text: string }>;

function client(baseUrl: string): Request {
  const authorization = `Basic ${Buffer.from(`${key.id}:${key.secret}`).toString("base64")}`;
  return async (path, { json, ...init } = {}) => {
    const headers = { authorization, ...(json !== undefined && { "content-type": "application/json" }), ...init.headers };
    const response = await fetch(`${baseUrl}${path}`, { ...init, headers, body: json !== undefined ? JSON.stringify(json) : init.body });
    return { status: response.status, text: await response.text() };
  };
}

interface Measurement {
  /** The group BENCH_MEASURE names it by. */
  group: "reset" | "snapshot" | "large";
  name: string;
  target: string;
  runs: number;
  /** Puts the bank in the state the measurement starts from (not timed). */
  prepare?(request: Request): Promise<void>;
  /** One timed run; fails on an unexpected answer. */
  run(request: Request): Promise<void>;
}

async function expectStatus(answer: Promise<{ status: number; text: string }>, status: number): Promise<string> {
  const { status: got, text } = await answer;
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${text.slice(0, 300)}`);
  return text;
}

const reset = (request: Request, seed: "demo" | number) => expectStatus(request("/sandbox/reset", { method: "POST", json: { seed } }), 200);
const download = (request: Request) => expectStatus(request("/sandbox/snapshot"), 200);
const upload = (request: Request, file: string) =>
  expectStatus(request("/sandbox/snapshot", { method: "PUT", body: file, headers: { "content-type": "application/json" } }), 200);

/** The snapshot of a seed, taken in `prepare` for the restore measurements. */
const files = new Map<string, string>();

function snapshotMeasurements(group: Measurement["group"], label: string, seed: "demo" | number, target: string, count: number): Measurement[] {
  return [
    {
      group,
      name: `GET /sandbox/snapshot, ${label}`,
      target,
      runs: count,
      prepare: async (request) => void (await reset(request, seed)),
      run: async (request) => void files.set(label, await download(request)),
    },
    {
      group,
      name: `PUT /sandbox/snapshot, ${label}`,
      target,
      runs: count,
      prepare: async (request) => void (await reset(request, "demo")),
      run: async (request) => void (await upload(request, files.get(label)!)),
    },
  ];
}

const measurements = (
  [
    {
      group: "reset",
      name: 'POST /sandbox/reset {"seed": "demo"}',
      target: "< 1 s",
      runs,
      run: async (request) => void (await reset(request, "demo")),
    },
    ...snapshotMeasurements("snapshot", `demo set (${demoObjects} objects)`, "demo", "< 2 s", runs),
    ...snapshotMeasurements("large", `${largeObjects.toLocaleString("en-US")} objects`, largeSeed, "< 30 s", largeRuns),
  ] satisfies Measurement[]
).filter((measurement) => chosen.includes(measurement.group));

/** The transition table's lines: p50, p95, p99 of the answer and of the delivery, the delivery's p95 against 100 ms. */
async function transitionLines(request: Request): Promise<string[]> {
  if (!chosen.includes("transition")) return [];
  benchLog(`${transitions} transitions to returned, each until delivered`);
  const timings = await measureTransitionDelivery(request, transitions);
  const ms = (values: number[], p: number) => `${percentile(values, p).toFixed(1)} ms`;
  const row = (what: string, values: number[], target: string) =>
    `| ${what} | ${ms(values, 50)} | ${ms(values, 95)} | ${ms(values, 99)} | ${target} |`;
  const delivered = timings.map((timing) => timing.delivered);
  const ratio = percentile(delivered, 95) / 100;
  return [
    "",
    `${transitions} ACH transfers, one at a time: \`POST /sandbox/ach/{id}/transition {"to": "returned", "error": "R01"}\` from its`,
    `sending until a receiver on 127.0.0.1 has both \`ach.update\` notifications (delivery worker poll ${pollIntervalMs} ms).`,
    "",
    "| From sending the transition to | p50 | p95 | p99 | Target |",
    "| --- | --- | --- | --- | --- |",
    row(
      "its answer (200)",
      timings.map((timing) => timing.answered),
      "",
    ),
    row("its notifications received", delivered, `p95 < 100 ms: ${ratio.toFixed(2)}× the target`),
    row(
      "its notifications received, after the answer",
      timings.map((timing) => timing.delivered - timing.answered),
      "",
    ),
  ];
}

async function measureStore(sandbox: RunningSandbox): Promise<string[]> {
  const request = client(sandbox.url);
  const lines: string[] = [];
  for (const measurement of measurements) {
    benchLog(measurement.name);
    await measurement.prepare?.(request);
    await measurement.run(request);
    const times: number[] = [];
    for (let index = 0; index < measurement.runs; index += 1) {
      const started = performance.now();
      await measurement.run(request);
      times.push(performance.now() - started);
    }
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    lines.push(`| ${measurement.name} | ${seconds(median(times))} | ${seconds(Math.max(...times))} | ${measurement.target} |`);
  }
  const size = files.get(`${largeObjects.toLocaleString("en-US")} objects`)?.length ?? 0;
  if (size) lines.push("", `Snapshot of ${largeObjects.toLocaleString("en-US")} objects: ${(size / 1024 / 1024).toFixed(1)} MiB.`);
  return [...lines, ...(await transitionLines(request))];
}

async function onStore(store: string): Promise<void> {
  const log = createLogger({ level: "warn", service: "sandbox" });
  const dataDir = store === "pglite" ? mkdtempSync(path.join(tmpdir(), "bench-control-")) : undefined;
  const postgres = store === "postgresql" ? await scratchPostgres(`bench_control_${process.pid}`) : undefined;
  if (store === "postgresql" && !postgres) return;
  const settings = { webhooks: { ...defaultSandboxSettings.webhooks, pollIntervalMs } };
  const sandbox = await startSandbox({ dataDir, databaseUrl: postgres?.url, seed: "empty", demoKey: key, log, settings });
  try {
    const lines = await measureStore(sandbox);
    console.log(`\n### ${store === "pglite" ? "PGlite (embedded, on disk)" : "PostgreSQL"}\n`);
    const header = measurements.length > 0 ? ["| Measurement | Median | Slowest | Target |", "| --- | --- | --- | --- |"] : [];
    console.log([...header, ...lines].join("\n"));
  } finally {
    await sandbox.close();
    await postgres?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`Runs: ${runs} (${largeRuns} for ${largeObjects.toLocaleString("en-US")} objects), each after one unmeasured run.`);
for (const store of stores) await onStore(store);
