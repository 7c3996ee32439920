/**
 * `npm run bench:events`: how fast a change at the bank reaches the console's receiver, its index and a browser
 * connected over Server-Sent Events, on PGlite and on PostgreSQL (when a server answers at BENCH_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/postgres). The whole product runs as `npm start` runs it; the bench
 * makes BENCH_RATE (200) changes per second for BENCH_SECONDS (30), after BENCH_WARMUP_SECONDS (5) of the same load
 * that is not measured, at the sandbox bank (PATCH of a network transfer's userdata, numbered, spread over every
 * transfer of the demo set), while a real Chromium signed in as a viewer holds the live feed open (`/api/live`). Each
 * change is timed from its commit at the bank (the `updated_at` the bank wrote with it, read back from the kept
 * version, or the PATCH's sending if later: the bank writes times to the second; the target's starting point) and
 * from the moment its PATCH was sent, to: the receiver storing its
 * notification, the index keeping the version that shows it, and the browser receiving that version. Counts what was lost or shown twice. BENCH_STORES=pglite or =postgresql
 * runs one store. Markdown on stdout, progress (and the slow changes second by second) on stderr.
 *
 * The bank keeps its data in a PostgreSQL database of its own whenever a server answers, in both runs: in the PGlite
 * run it used to share the console's embedded database (as `npm start` runs them), so its own 200 writes per second
 * and their deliveries ran through the same single-threaded store as the receiver and the index, which a real bank
 * never does. Without a server, the PGlite run shares the embedded database as before (the report says which).
 *
 * `BENCH_STEP_UP=1`: instead of one run, the highest rate at which commit → browser p99 stays under 250 ms with
 * nothing lost, shown twice or failed, by a step-up search over rates (scripts/bench/events-step-up.ts: doubling from
 * BENCH_STEP_FROM, 50, then halving the gap), each step BENCH_SECONDS (10 here) after BENCH_WARMUP_SECONDS (3) in the
 * same running product; beside it the highest rate the bank alone sustains for the same PATCHes (a sandbox bank with
 * no console: every PATCH answered 200 within 250 ms at p99), searched the same way, and the ratio of the two, which
 * travels between machines where the rates do not.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { demoUsers } from "@/lib/auth/demo-users";
import { networkTransfers, now, patchAtRate } from "./events-patches";
import { measurePipeline, pipelineReport, type EventsStack } from "./events-run";
import { highestHeldRate } from "./events-step-up";
import { launchBenchChromium } from "./pages-measure";
import { benchLog, freePort, postgresAdminUrl, scratchPostgres, startChild, stopChild, waitForHealth, withScratchPostgresPair } from "./run";
import { percentile } from "./stats";

/** Where the PostgreSQL server was reached: a Unix socket's directory, or host and port. */
const postgresPlace = (() => {
  const url = new URL(postgresAdminUrl);
  return url.searchParams.get("host") ?? `${url.hostname}:${url.port || 5432} over TCP`;
})();

const stepUp = process.env.BENCH_STEP_UP === "1";
const rate = Number(process.env.BENCH_RATE ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? (stepUp ? 10 : 30));
/**
 * Changes at the same rate before the measured ones, not counted: the first seconds of load were 5-10x slower than
 * the rest (JIT, connection pools, first use of each path), a start-up cost rather than the pipeline's speed.
 */
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? (stepUp ? 3 : 5));
const steps = { from: Number(process.env.BENCH_STEP_FROM ?? 50), ceiling: 3200 };
/** How often the sandbox bank looks for notifications to send (its default is 200 ms). */
const sandboxPollMs = Number(process.env.BENCH_SANDBOX_POLL_MS ?? 25);
/** Which stores to run: "pglite,postgresql" (both, the default), or one of them. */
const stores = (process.env.BENCH_STORES ?? "pglite,postgresql").split(",");
const viewer = demoUsers.find((user) => user.role === "viewer")!;
const report: string[] = [];

/** The product as `npm start` runs it, backfilled, with a viewer's page holding the live feed open, for `measure`. */
async function withEventsStack(
  name: string,
  databases: { console?: string; sandbox: string } | null,
  measure: (stack: EventsStack) => Promise<void>,
) {
  const dataRoot = mkdtempSync(path.join(tmpdir(), "bench-events-"));
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const consoleUrl = `http://127.0.0.1:${port}`;
  const bankUrl = `http://127.0.0.1:${sandboxPort}`;
  const child = startChild(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    DATA_ROOT: dataRoot,
    SANDBOX_DATA: "disk",
    SANDBOX_LIFECYCLE: "off",
    SANDBOX_WEBHOOK_POLL_MS: String(sandboxPollMs),
    LOG_LEVEL: "warn",
    ...(databases?.console && { DATABASE_URL: databases.console }),
    ...(databases && { SANDBOX_DATABASE_URL: databases.sandbox }),
  });
  child.stdout?.on("data", () => {});
  // The embedded database `npm start` serves (PGlite) or the console's PostgreSQL database: read after the run.
  const consoleDb = new pg.Client({
    connectionString:
      databases?.console ?? `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.join(dataRoot, `start-${port}`, "socket"))}`,
  });
  const browser = await launchBenchChromium();
  try {
    await waitForHealth(`${consoleUrl}/api/health`, child, 300_000);
    await consoleDb.connect();
    const deadline = Date.now() + 180_000;
    while ((await consoleDb.query("SELECT count(*) AS open FROM console.index_backfill WHERE finished_at IS NULL")).rows[0].open !== "0") {
      if (Date.now() > deadline) throw new Error("timed out waiting for the backfill");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    benchLog(`${name}: stack up, index backfilled`);

    const page = await browser.newPage();
    await page.goto(`${consoleUrl}/sign-in`);
    await page.getByLabel("Email").fill(viewer.email);
    await page.getByLabel("Password").fill(viewer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { timeout: 180_000 });
    // A console page that reads nothing live itself (production's empty event list); its own feed stays open beside
    // the one opened here, which is the one timed. (A route's answer would not do: its CSP forbids any connection.)
    await page.goto(`${consoleUrl}/events?environment=production`);
    await page.evaluate(() => {
      const received: Array<{ id: string; at: number }> = [];
      (window as unknown as { received: typeof received }).received = received;
      const source = new EventSource("/api/live");
      source.addEventListener("change", (event) =>
        received.push({ id: (event as MessageEvent).lastEventId, at: performance.timeOrigin + performance.now() }),
      );
      return new Promise<void>((resolve, reject) => {
        source.addEventListener("ready", () => resolve(), { once: true });
        setTimeout(() => reject(new Error("the live feed did not open within 30 s")), 30_000);
      });
    });
    await measure({ name, bankUrl, consoleUrl, consoleDb, page, transfers: await networkTransfers(bankUrl) });
  } finally {
    await browser.close();
    await consoleDb.end().catch(() => {});
    await stopChild(child);
    rmSync(dataRoot, { recursive: true, force: true });
  }
}

const bankPlace = (databases: { sandbox: string } | null) =>
  databases
    ? `a PostgreSQL database of its own (server reached at ${postgresPlace})`
    : "the console's embedded database (no PostgreSQL server answered)";

/** The highest rate the whole product holds, as a table of its steps. */
async function stepUpReport(stack: EventsStack): Promise<number | null> {
  const runs: string[] = [];
  const { highest } = await highestHeldRate(async (stepRate) => {
    const run = await measurePipeline(stack, { rate: stepRate, seconds, warmupSeconds });
    runs.push(
      `| ${stepRate}/s | ${run.p99.toFixed(0)} ms | ${run.lost} | ${run.shownTwice} | ${run.sent.failures.length} | ${run.held ? "held" : "missed"} |`,
    );
    return run.held;
  }, steps);
  report.push(
    "",
    `### ${stack.name}: commit → browser`,
    "",
    "| rate | p99 | lost | shown twice | failed PATCHes | |",
    "|---:|---:|---:|---:|---:|---|",
    ...runs,
  );
  return highest;
}

/**
 * The highest rate a sandbox bank with no console sustains for the same PATCHes (every one answered 200, p99 from its
 * sending to its answer under 250 ms), on a PostgreSQL database of its own when a server answers.
 */
async function bankAloneHighest(): Promise<number | null> {
  const database = await scratchPostgres("bench_events_bank_alone");
  const dataRoot = mkdtempSync(path.join(tmpdir(), "bench-events-bank-"));
  const sandboxPort = await freePort();
  const bankUrl = `http://127.0.0.1:${sandboxPort}`;
  const child = startChild(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    SANDBOX_PORT: String(sandboxPort),
    DATA_ROOT: dataRoot,
    SANDBOX_LIFECYCLE: "off",
    LOG_LEVEL: "warn",
    ...(database && { SANDBOX_DATABASE_URL: database.url }),
  });
  const rows: string[] = [];
  try {
    await waitForHealth(`${bankUrl}/health`, child, 300_000);
    const transfers = await networkTransfers(bankUrl);
    const { highest } = await highestHeldRate(async (stepRate) => {
      const started = now();
      const run = await patchAtRate(bankUrl, transfers, { rate: stepRate, seconds, warmupSeconds, tag: `alone_${started}` });
      const p99 = percentile(run.answerMs, 99);
      const held = run.failures.length === 0 && p99 < 250;
      rows.push(`| ${stepRate}/s | ${p99.toFixed(0)} ms | ${run.failures.length} | ${held ? "held" : "missed"} |`);
      return held;
    }, steps);
    report.push("", "### The bank alone: PATCH → answer", "", "| rate | p99 | failed | |", "|---:|---:|---:|---|", ...rows);
    return highest;
  } finally {
    await stopChild(child);
    await database?.drop();
    rmSync(dataRoot, { recursive: true, force: true });
  }
}

const title = stepUp
  ? `steps of ${seconds} s after ${warmupSeconds} s of warm-up`
  : `${rate} changes/s for ${seconds} s after ${warmupSeconds} s of warm-up`;
report.push(`## Bank change to browser (${new Date().toISOString().slice(0, 10)}, ${title}, sandbox webhook poll ${sandboxPollMs} ms)`);
const highest: Record<string, number | null> = {};
const measureStore = (name: string, databases: { console?: string; sandbox: string } | null) =>
  withEventsStack(name, databases, async (stack) => {
    if (stepUp) {
      highest[name] = await stepUpReport(stack);
      return;
    }
    const run = await measurePipeline(stack, { rate, seconds, warmupSeconds });
    const title = `${run.sent.changes.length} changes in ${run.sent.sendSeconds.toFixed(1)} s (${(run.sent.changes.length / run.sent.sendSeconds).toFixed(0)}/s)`;
    report.push("", `### ${name}: ${title}, ${stack.transfers.length} transfers`, "", ...pipelineReport(run, bankPlace(databases)));
  });
if (stores.includes("pglite")) {
  const bank = await scratchPostgres("bench_events_bank");
  try {
    await measureStore("PGlite", bank ? { sandbox: bank.url } : null);
  } finally {
    await bank?.drop();
  }
}
if (stores.includes("postgresql"))
  await withScratchPostgresPair("bench_events", (databases) =>
    measureStore("PostgreSQL", { console: databases.console.url, sandbox: databases.sandbox.url }),
  );
if (stepUp) {
  const bankAlone = await bankAloneHighest();
  const ratio = (value: number | null) => (value !== null && bankAlone ? ` (${((value / bankAlone) * 100).toFixed(0)}% of the bank alone)` : "");
  report.push(
    "",
    `Highest rate with commit → browser p99 under 250 ms: ${Object.entries(highest)
      .map(([name, value]) => `${name} ${value ?? "none"}/s${ratio(value)}`)
      .join(", ")}; the bank alone sustains ${bankAlone ?? "none"}/s.`,
  );
}
console.log(report.join("\n"));
process.exit(0);
