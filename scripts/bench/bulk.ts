/**
 * `npm run bench:bulk`: a bulk userdata change on 200 network transfers, end to end through the built console
 * (issue 44's budget: under 20 s, with the progress bar moving), on each store (BENCH_STORES, default
 * "pglite,postgresql"): the sandbox bank (demo seed, lifecycle off, four-eyes off as the sandbox has it by default) and
 * the console share one embedded PGlite, as `npm start` runs them, or each has a fresh PostgreSQL database (when a
 * server answers at BENCH_DATABASE_URL). Before the console starts, 200 network transfers of an amount no seeded one has are created through the sandbox control API,
 * so the console's index walks them at its start. Signed in as the demo operations user, the bench selects all
 * matching (`GET /api/index-list/network_transfer/ids?amount_min=…&amount_max=…`), asks `POST /api/bulk`
 * `userdata.set` on them and polls `GET /api/bulk/{id}` every 250 ms until every row is settled. Beside it, the
 * ceiling: the same 200 PATCHes sent straight to the bank, as many at once as the runner sends (lib/bulk/runner.ts).
 * The 1-minute load average at the start of each store's run is printed beside its figures (the machine may be shared).
 * Markdown on stdout, progress on stderr; exits 1 when the target is missed or a row is not done.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import type { BulkJobView } from "@/lib/bulk/codes";
import { settledCount } from "@/lib/bulk/codes";
import { ensureConsoleBuilt } from "../lib/build";
import { benchLog, firstJsonLine, sandboxBankAuthorization, startChild, stopChild, waitForHealth, withScratchPostgresPair } from "./run";
import { demoSessionCookie } from "./session-cookie";

const rows = 200;
const targetMs = 20_000;
const pollMs = 250;
/** As many rows at once as the runner sends (lib/bulk/runner.ts, its default concurrency). */
const runnerConcurrency = 4;
/** An amount no demo-seeded transfer has: the filter that selects exactly the transfers made here. */
const benchAmount = "432.10";
const ports = { sandbox: Number(process.env.BENCH_SANDBOX_PORT ?? 4214), console: Number(process.env.BENCH_CONSOLE_PORT ?? 3214) };
const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
const consoleUrl = `http://127.0.0.1:${ports.console}`;
const bankHeaders = { authorization: sandboxBankAuthorization, "content-type": "application/json" };
/** Which stores to run: "pglite,postgresql" (both, the default), or one of them. */
const stores = (process.env.BENCH_STORES ?? "pglite,postgresql").split(",");
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** A JSON answer of the expected status, or an error naming the request and what came back. */
async function expectJson<T>(what: string, answer: Response, status: number): Promise<T> {
  if (answer.status !== status) throw new Error(`${what}: HTTP ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

async function createTransfers() {
  for (let made = 0; made < rows; made++) {
    const answer = await fetch(`${sandboxUrl}/sandbox/network_transfer`, {
      method: "POST",
      headers: bankHeaders,
      body: JSON.stringify({ amount: benchAmount }),
    });
    await expectJson("POST /sandbox/network_transfer", answer, 201);
  }
}

/** Waits until the console's index holds every transfer made here (its start-up walk of the bank). */
async function waitForIndex(cookie: string, query: string) {
  const started = Date.now();
  for (;;) {
    const answer = await fetch(`${consoleUrl}/api/index-list/network_transfer/count?${query}`, { headers: { cookie } });
    const text = await answer.text();
    if (answer.ok && (JSON.parse(text) as { count: number }).count >= rows) return;
    if (Date.now() - started > 120_000)
      throw new Error(
        `the console's index did not hold ${rows} transfers of ${benchAmount} within 120 s (last count: HTTP ${answer.status} ${text})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Select all matching, ask the bulk action, poll until settled: the timings the operator sees. */
async function bulkEndToEnd(cookie: string, query: string) {
  const started = performance.now();
  const { ids } = await expectJson<{ ids: string[] }>(
    "GET /api/index-list/network_transfer/ids",
    await fetch(`${consoleUrl}/api/index-list/network_transfer/ids?${query}`, { headers: { cookie } }),
    200,
  );
  if (ids.length !== rows) throw new Error(`select all matching answered ${ids.length} ids, expected ${rows}`);
  const asked = await expectJson<BulkJobView>(
    "POST /api/bulk",
    await fetch(`${consoleUrl}/api/bulk`, {
      method: "POST",
      headers: { cookie, origin: consoleUrl, "content-type": "application/json" },
      body: JSON.stringify({ action: "userdata.set", resource: "network_transfer", ids, key: "bench_bulk", value: new Date().toISOString() }),
    }),
    202,
  );
  const askedMs = performance.now() - started;
  if (asked.status === "awaiting_approval") throw new Error("the bulk action awaits approval: four-eyes is on in this sandbox");
  let firstSettledMs: number | null = null;
  let progressPolls = 0;
  let polls = 0;
  let lastSettled = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const job = await expectJson<BulkJobView>("GET /api/bulk/{id}", await fetch(`${consoleUrl}/api/bulk/${asked.id}`, { headers: { cookie } }), 200);
    polls++;
    const settled = settledCount(job.counts);
    if (settled > 0 && firstSettledMs === null) firstSettledMs = performance.now() - started;
    if (settled > lastSettled) progressPolls++;
    lastSettled = settled;
    if (settled === job.total)
      return { endToEndMs: performance.now() - started, askedMs, firstSettledMs: firstSettledMs!, polls, progressPolls, job, ids };
  }
}

/** The ceiling: the same PATCHes straight to the bank, `runnerConcurrency` at a time. */
async function directPatches(ids: string[]) {
  const queue = [...ids];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: runnerConcurrency }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        const answer = await fetch(`${sandboxUrl}/network_transfer/${id}`, {
          method: "PATCH",
          headers: bankHeaders,
          body: JSON.stringify({ userdata: { bench_bulk: "ceiling" } }),
        });
        await expectJson(`PATCH /network_transfer/${id}`, answer, 200);
      }
    }),
  );
  return performance.now() - started;
}

/** The sandbox bank and the console on `databases`, 200 transfers made, the console's index holding them: one row of the report. */
async function benchStore(name: string, databases: { sandbox: string; console: string }, workDir: string): Promise<boolean> {
  const load = loadavg()[0]!.toFixed(1);
  const sandbox = startChild(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    SANDBOX_DATABASE_URL: databases.sandbox,
    SANDBOX_PORT: String(ports.sandbox),
    SANDBOX_SEED: "demo",
    SANDBOX_LIFECYCLE: "off",
    // The console's index subscribes to the bank's webhooks at its start; the bank refuses its address otherwise.
    PORT: String(ports.console),
    SANDBOX_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
    LOG_LEVEL: "warn",
  });
  let consoleChild: ReturnType<typeof startChild> | undefined;
  try {
    await waitForHealth(`${sandboxUrl}/health`, sandbox, 120_000);
    benchLog(`${name}: creating ${rows} network transfers of ${benchAmount}...`);
    await createTransfers();
    consoleChild = startChild(
      process.execPath,
      [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(ports.console), "-H", "127.0.0.1"],
      {
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        AUTH_SECRET: randomBytes(32).toString("base64"),
        CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        AUTH_TRUST_HOST: "true",
        DATABASE_URL: databases.console,
        DATA_ROOT: workDir,
        PORT: String(ports.console),
        SANDBOX_PORT: String(ports.sandbox),
        LOG_LEVEL: "warn",
      },
    );
    consoleChild.stdout?.resume();
    await waitForHealth(`${consoleUrl}/api/health`, consoleChild, 120_000);
    const cookie = await demoSessionCookie(consoleUrl, "operations");
    const query = new URLSearchParams({ amount_min: benchAmount, amount_max: benchAmount }).toString();
    await waitForIndex(cookie, query);
    benchLog(`${name}: bulk userdata.set through the console...`);
    const bulk = await bulkEndToEnd(cookie, query);
    benchLog(`${name}: the same PATCHes straight to the bank...`);
    const ceilingMs = await directPatches(bulk.ids);
    const { counts } = bulk.job;
    const met = bulk.endToEndMs < targetMs && counts.done === rows;
    const line = `| ${name} | ${load} | ${seconds(bulk.endToEndMs)} | ${seconds(bulk.askedMs)} | ${seconds(bulk.firstSettledMs)} | ${bulk.progressPolls} of ${bulk.polls} | ${counts.done} / ${counts.refused} / ${counts.failed} (${rows - counts.done - counts.refused - counts.failed}) | ${seconds(ceilingMs)} (${(bulk.endToEndMs / ceilingMs).toFixed(1)}x) | ${met ? "met" : "**missed**"} |`;
    // On stderr at once as well: a run stopped in a later store keeps this one's figures.
    benchLog(line);
    report.push(line);
    return met;
  } finally {
    if (consoleChild) await stopChild(consoleChild);
    await stopChild(sandbox);
  }
}

const report = [
  `${new Date().toISOString().slice(0, 10)}: ${rows} network transfers, userdata.set as the demo operations user, four-eyes off, polled every ${pollMs} ms; load: the 1-minute load average at the start.`,
  "",
  "| store | load | end to end (select all → every row settled) | job answered (202) | first row settled | polls that saw progress | done / refused / failed (other) | ceiling: 200 PATCHes straight to the bank, 4 at a time | target < 20 s |",
  "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |",
];
let allMet = true;
ensureConsoleBuilt();
if (stores.includes("pglite")) {
  const workDir = mkdtempSync(path.join(tmpdir(), "bench-bulk-"));
  const dbHost = startChild(process.execPath, ["--import", "tsx", "scripts/bench/embedded-db.ts", path.join(workDir, "pglite")], {});
  try {
    const { url } = await firstJsonLine<{ url: string }>(dbHost);
    allMet = (await benchStore("PGlite (one, shared)", { sandbox: url, console: url }, workDir)) && allMet;
  } finally {
    await stopChild(dbHost);
    rmSync(workDir, { recursive: true, force: true });
  }
}
if (stores.includes("postgresql")) {
  await withScratchPostgresPair("bench_bulk", async (databases) => {
    const workDir = mkdtempSync(path.join(tmpdir(), "bench-bulk-"));
    try {
      allMet = (await benchStore("PostgreSQL", { sandbox: databases.sandbox.url, console: databases.console.url }, workDir)) && allMet;
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });
}
console.log(report.join("\n"));
process.exitCode = allMet ? 0 : 1;
