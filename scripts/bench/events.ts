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
 */
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { demoUsers } from "@/lib/auth/demo-users";
import { readEnv } from "@/lib/env/read-env";
import { sandboxEnvSchema } from "@/lib/env/schema";
import { runOutcome, type Change, type KeptVersion } from "./events-outcome";
import { percentile } from "./stats";
import { launchBenchChromium } from "./pages-measure";
import { benchLog, freePort, postgresAdminUrl, scratchPostgres, startChild, stopChild, waitForHealth, withScratchPostgresPair } from "./run";

/** Where the PostgreSQL server was reached: a Unix socket's directory, or host and port. */
const postgresPlace = (() => {
  const url = new URL(postgresAdminUrl);
  return url.searchParams.get("host") ?? `${url.hostname}:${url.port || 5432} over TCP`;
})();

const rate = Number(process.env.BENCH_RATE ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? 30);
/**
 * Changes at the same rate before the measured ones, not counted: the first seconds of load were 5-10x slower than
 * the rest (JIT, connection pools, first use of each path), a start-up cost rather than the pipeline's speed.
 */
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
/** How often the sandbox bank looks for notifications to send (its default is 200 ms). */
const sandboxPollMs = Number(process.env.BENCH_SANDBOX_POLL_MS ?? 25);
/** Which stores to run: "pglite,postgresql" (both, the default), or one of them. */
const stores = (process.env.BENCH_STORES ?? "pglite,postgresql").split(",");
const { BANK_API_KEY_ID, BANK_API_KEY_SECRET } = readEnv(sandboxEnvSchema);
const bankAuth = `Basic ${Buffer.from(`${BANK_API_KEY_ID}:${BANK_API_KEY_SECRET}`).toString("base64")}`;
const viewer = demoUsers.find((user) => user.role === "viewer")!;
const log = benchLog;
const now = () => performance.timeOrigin + performance.now();
const report: string[] = [];
const row = (cells: (string | number)[]) => report.push(`| ${cells.join(" | ")} |`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The load's PATCHes over kept connections with node:http. The bench shares the machine's two cores with what it
 * measures, and fetch (undici) cost it about a quarter of a core at 200 requests a second (measured with top): CPU a real
 * bank's clients would not take from the bank and the console.
 */
const loadAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function sendPatch(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "PATCH",
        agent: loadAgent,
        headers: { authorization: bankAuth, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        answer.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

async function benchStore(name: string, databases: { console?: string; sandbox: string } | null) {
  const dataRoot = mkdtempSync(path.join(tmpdir(), "bench-events-"));
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const consoleUrl = `http://127.0.0.1:${port}`;
  const bankUrl = `http://127.0.0.1:${sandboxPort}`;
  const stack = startChild(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
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
  stack.stdout?.on("data", () => {});
  // The embedded database `npm start` serves (PGlite) or the console's PostgreSQL database: read after the run.
  const consoleDb = new pg.Client({
    connectionString:
      databases?.console ?? `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.join(dataRoot, `start-${port}`, "socket"))}`,
  });
  const browser = await launchBenchChromium();
  try {
    await waitForHealth(`${consoleUrl}/api/health`, stack, 300_000);
    await consoleDb.connect();
    await until(
      async () =>
        (await consoleDb.query("SELECT count(*) FILTER (WHERE finished_at IS NULL) AS open, count(*) AS lists FROM console.index_backfill")).rows[0]
          .open === "0",
      "the backfill",
    );
    log(`${name}: stack up, index backfilled`);

    const page = await browser.newPage();
    await page.goto(`${consoleUrl}/sign-in`);
    await page.getByLabel("Email").fill(viewer.email);
    await page.getByLabel("Password").fill(viewer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { timeout: 60_000 });
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

    const transfers = (
      (await (await fetch(`${bankUrl}/network_transfer?page_size=1000`, { headers: { authorization: bankAuth } })).json()) as {
        data: Array<{ id: string }>;
      }
    ).data.map((transfer) => transfer.id);
    const run = `run_${Date.now()}`;
    const changes: Change[] = [];
    const total = rate * seconds;
    const failures: string[] = [];
    const inFlight: Promise<void>[] = [];
    const patch = (objectId: string, userdata: Record<string, unknown>, seq: number) =>
      inFlight.push(
        sendPatch(`${bankUrl}/network_transfer/${objectId}`, JSON.stringify({ userdata })).then(
          ({ status, body }) => {
            if (status !== 200) failures.push(`${seq}: HTTP ${status} ${body}`);
          },
          (error: unknown) => void failures.push(`${seq}: ${error instanceof Error ? error.message : error}`),
        ),
      );
    const warmupStartedAt = now();
    log(
      `${name}: warming up with ${warmupSeconds * rate} changes over ${warmupSeconds} s, then ${total} changes at ${rate}/s over ${transfers.length} network transfers...`,
    );
    const startedAt = warmupStartedAt + warmupSeconds * 1000;
    for (let seq = -warmupSeconds * rate; seq < total; seq++) {
      const due = startedAt + (seq * 1000) / rate;
      const wait = due - now();
      if (wait > 1) await sleep(wait);
      const objectId = transfers[((seq % transfers.length) + transfers.length) % transfers.length]!;
      if (seq < 0) {
        patch(objectId, { bench: `${run}_warmup`, seq }, seq);
        continue;
      }
      changes.push({ seq, objectId, sentAt: now() });
      patch(objectId, { bench: run, seq }, seq);
    }
    await Promise.all(inFlight);
    const sendSeconds = (now() - startedAt) / 1000;
    log(`${name}: sent in ${sendSeconds.toFixed(1)} s; waiting for the index to settle...`);
    const lastSeqOf = new Map(changes.map((change) => [change.objectId, change.seq]));
    await until(
      async () => {
        const { rows } = await consoleDb.query(
          "SELECT id, (state->'userdata'->>'seq')::int AS seq FROM console.bank_objects WHERE environment = 'sandbox' AND resource = 'network_transfer' AND state->'userdata'->>'bench' = $1",
          [run],
        );
        return rows.filter((object) => lastSeqOf.get(object.id) === object.seq).length === lastSeqOf.size;
      },
      "every transfer's last change in the index",
      60_000,
    ).catch((error: Error) => log(error.message));
    await sleep(2000);

    const versions = (
      await consoleDb.query(
        `SELECT id::text AS id, object_id, (state->'userdata'->>'seq')::int AS seq, extract(epoch from seen_at) * 1000 AS seen,
           extract(epoch from (state->>'updated_at')::timestamptz) * 1000 AS changed
         FROM console.bank_object_versions WHERE environment = 'sandbox' AND state->'userdata'->>'bench' = $1`,
        [run],
      )
    ).rows as KeptVersion[];
    const inbox = (
      await consoleDb.query(
        `SELECT object_id, extract(epoch from received_at) * 1000 AS received, deliveries FROM console.bank_event_inbox
         WHERE environment = 'sandbox' AND event = 'network_transfer.update' AND received_at >= to_timestamp($1 / 1000.0)`,
        [startedAt - 1000],
      )
    ).rows as Array<{ object_id: string; received: number; deliveries: number }>;
    // The receiver's answer time as the bank measured it, per delivery attempt of the run.
    const hooks = (
      (await (await fetch(`${bankUrl}/webhook?page_size=1000&event=network_transfer.update`, { headers: { authorization: bankAuth } })).json()) as {
        data: Array<{ id: string; url: string }>;
      }
    ).data;
    const hook = hooks.find((candidate) => candidate.url === `${consoleUrl}/api/bank-events/sandbox`)!;
    const answerTimes: number[] = [];
    let badAnswers = 0;
    for (let next: string | undefined = `${bankUrl}/webhook/${hook.id}/deliveries?page_size=1000`; next;) {
      const deliveries = (await (await fetch(next, { headers: { authorization: bankAuth } })).json()) as {
        data: Array<{ latency_ms: number; succeeded: boolean; attempted_at: string }>;
        page_next?: string;
      };
      for (const delivery of deliveries.data) {
        if (Date.parse(delivery.attempted_at) < startedAt) continue;
        answerTimes.push(delivery.latency_ms);
        if (!delivery.succeeded) badAnswers++;
      }
      next = deliveries.page_next ?? undefined;
    }
    const received = (await page.evaluate(() => (window as unknown as { received: Array<{ id: string; at: number }> }).received)) as Array<{
      id: string;
      at: number;
    }>;

    const { timings, bySecond, lost, superseded, versionsNotShown, shownTwice, keptTwice } = runOutcome({
      changes,
      versions,
      inbox,
      received,
      startedAt,
    });
    const p50max = (values: number[]) => (values.length ? `${percentile(values, 50).toFixed(0)}/${Math.max(...values).toFixed(0)}` : "-");
    log(
      `${name}: from the commit, by second of the run, to the receiver | index | browser (p50/max ms):\n${[...bySecond]
        .map(([second, stages]) => `  ${second}: ${p50max(stages.receiver)} | ${p50max(stages.index)} | ${p50max(stages.browser)}`)
        .join("\n")}`,
    );

    report.push(
      "",
      `### ${name}: ${changes.length} changes in ${sendSeconds.toFixed(1)} s (${(changes.length / sendSeconds).toFixed(0)}/s), ${transfers.length} transfers`,
      "",
      `The bank's data: ${databases ? `a PostgreSQL database of its own (server reached at ${postgresPlace})` : "the console's embedded database (no PostgreSQL server answered)"}.`,
      "",
    );
    const cells = (values: number[]) => [`${percentile(values, 50).toFixed(0)} ms`, `${percentile(values, 99).toFixed(0)} ms`];
    row(["to", "measured", "from the commit at the bank: p50", "p99", "from the PATCH sent: p50", "p99"]);
    row(["---", "---:", "---:", "---:", "---:", "---:"]);
    for (const [label, stage] of [
      ["the receiver storing the notification", "receiver"],
      ["the index keeping the version", "index"],
      ["the browser receiving it over SSE", "browser"],
    ] as const) {
      row([label, timings.committed[stage].length, ...cells(timings.committed[stage]), ...cells(timings.sent[stage])]);
    }
    report.push(
      "",
      `Target: p99 from the commit to the browser under 250 ms: **${percentile(timings.committed.browser, 99) < 250 ? "met" : "missed"}**.`,
    );
    report.push(
      "",
      `The receiver's answer as the bank timed it (${answerTimes.length} deliveries, ${(answerTimes.length / sendSeconds).toFixed(0)}/s): ` +
        `p50 ${percentile(answerTimes, 50)} ms, p99 **${percentile(answerTimes, 99)} ms** (target < 50 ms: **${percentile(answerTimes, 99) < 50 ? "met" : "missed"}**), not 200: ${badAnswers}.`,
      "",
      `Lost (a transfer's last change never in the index): **${lost}**. Versions kept but never shown in the browser: **${versionsNotShown}**. ` +
        `Shown twice: **${shownTwice}**; kept twice: **${keptTwice}**. Superseded (the bank changed the transfer again before its ` +
        `notification was fetched, so the index went straight to the newer state): ${superseded}. Failed PATCHes: ${failures.length}` +
        `${failures.length ? ` (first: ${failures[0]})` : ""}. Notifications delivered more than once: ${inbox.filter((entry) => entry.deliveries > 1).length}.`,
    );
  } finally {
    await browser.close();
    await consoleDb.end().catch(() => {});

    await stopChild(stack);
    rmSync(dataRoot, { recursive: true, force: true });
  }
}

report.push(
  `## Bank change to browser (${new Date().toISOString().slice(0, 10)}, ${rate} changes/s for ${seconds} s after ${warmupSeconds} s of warm-up, sandbox webhook poll ${sandboxPollMs} ms)`,
);
if (stores.includes("pglite")) {
  const bank = await scratchPostgres("bench_events_bank");
  try {
    await benchStore("PGlite", bank ? { sandbox: bank.url } : null);
  } finally {
    await bank?.drop();
  }
}
if (stores.includes("postgresql"))
  await withScratchPostgresPair("bench_events", (databases) =>
    benchStore("PostgreSQL", { console: databases.console.url, sandbox: databases.sandbox.url }),
  );
console.log(report.join("\n"));
process.exit(0);
