/**
 * `npm run bench:cluster`: the console as `npm run cluster` runs it (HAProxy in front of CLUSTER_INSTANCES console
 * processes, default 3, on one PostgreSQL database), under a steady signed-in load of list and detail reads, with
 * faults: one instance killed (SIGKILL) and started again, then every instance restarted one after another (SIGTERM,
 * start, next: a rolling deploy). Prints a Markdown report on stdout:
 * - throughput through HAProxy with 1 instance and with all, and CPU ms per request of the instances together, of the
 *   sandbox bank and of PostgreSQL (the whole server: other clients of it are counted too);
 * - failed requests (any answer but 200, or no answer) at the kill and during the rolling restart (target 0);
 * - live streams (BENCH_LIVE_STREAMS, default 4, open through HAProxy): how long each took to be caught up again
 *   after its stream ended (p95, target under 5 s), and whether one was sent to sign-in.
 * - bank changes during the faults (BENCH_CHANGES_PER_SECOND new counterparties a second, default 20, each a
 *   notification): how many are missing from the index at the end (target 0), notifications acknowledged and lost,
 *   claimed more than once, and how long the inbox took to settle.
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * and HAProxy (installed as `npm run cluster` installs it). Options: BENCH_SECONDS (each throughput run, default 8),
 * BENCH_CONNECTIONS (concurrent readers, default 8). Not part of CI.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureConsoleBuilt } from "../lib/build";
import { startCluster, type Cluster } from "../lib/cluster";
import { startService, waitUntilReady } from "../lib/services";
import { benchLog, cpuSecondsOfTree, freePort, scratchPostgres, waitUntilQuiet } from "./run";
import { percentile } from "./stats";
import { viewerSessionCookie } from "./session-cookie";

const wholeFromEnv = (name: string, fallback: number) => {
  const text = process.env[name];
  if (text === undefined) return fallback;
  if (!/^[1-9]\d{0,3}$/.test(text)) throw new Error(`${name}: "${text}" is not a whole number from 1 to 9999`);
  return Number(text);
};
const seconds = wholeFromEnv("BENCH_SECONDS", 8);
const connections = wholeFromEnv("BENCH_CONNECTIONS", 8);
const instanceCount = wholeFromEnv("CLUSTER_INSTANCES", 3);
const liveStreams = Math.min(5, wholeFromEnv("BENCH_LIVE_STREAMS", 4));
const changesPerSecond = wholeFromEnv("BENCH_CHANGES_PER_SECOND", 20);
const bankAuth = { authorization: `Basic ${Buffer.from("sandbox-demo-key:sandbox-demo-secret-change-me").toString("base64")}` };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Four ports in a row free on 127.0.0.1: HAProxy on the first, the instances on the next. */
async function portRun(length: number): Promise<number> {
  for (;;) {
    const first = await freePort();
    if (first + length > 65_535) continue;
    const { createServer } = await import("node:net");
    const free = await Promise.all(
      Array.from(
        { length },
        (_, index) =>
          new Promise<boolean>((resolve) => {
            const probe = createServer()
              .once("error", () => resolve(false))
              .listen(first + index, "127.0.0.1", () => probe.close(() => resolve(true)));
          }),
      ),
    );
    if (free.every(Boolean)) return first;
  }
}

interface Outcome {
  at: number;
  ok: boolean;
  what: string;
}

/**
 * `connections` readers, each reading the list and a detail in turn through HAProxy until stopped; every request's
 * outcome is kept with its time, so failures can be told apart by phase.
 */
function steadyLoad(url: string, cookie: string, paths: string[], readers: number) {
  const outcomes: Outcome[] = [];
  let running = true;
  const reader = async (offset: number) => {
    for (let turn = offset; running; turn++) {
      const path = paths[turn % paths.length]!;
      try {
        const answer = await fetch(`${url}${path}`, { headers: { cookie }, signal: AbortSignal.timeout(15_000) });
        await answer.arrayBuffer();
        outcomes.push({ at: Date.now(), ok: answer.status === 200, what: `${answer.status} ${path}` });
      } catch (error) {
        outcomes.push({
          at: Date.now(),
          ok: false,
          what: `${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : error} ${path}`,
        });
      }
    }
  };
  const done = Promise.all(Array.from({ length: readers }, (_, index) => reader(index)));
  return {
    outcomes,
    async stop() {
      running = false;
      await done;
    },
  };
}

/**
 * The PostgreSQL server's main process, found from a backend's parent: its process tree holds every backend, so its
 * CPU around a run is the database's cost (other clients of the same server included).
 */
async function postmasterPid(url: string): Promise<number | undefined> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return Number(readFileSync(`/proc/${rows[0]!.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
  } catch {
    return undefined; // a server on another machine: its CPU is not measured
  } finally {
    await client.end();
  }
}

/**
 * New objects at the bank at `perSecond` (counterparties, through the sandbox's control API): each is one
 * `counterparty.create` notification to the console, and must end up in its index.
 */
function bankChanges(sandboxUrl: string, perSecond: number) {
  const created: string[] = [];
  let failed = 0;
  let running = true;
  const done = (async () => {
    for (let next = Date.now(); running; next += 1000 / perSecond) {
      await sleep(Math.max(0, next - Date.now()));
      void fetch(`${sandboxUrl}/sandbox/counterparty`, {
        method: "POST",
        headers: { ...bankAuth, "content-type": "application/json" },
        body: JSON.stringify({ name: `Cluster bench ${created.length + failed}` }),
      })
        .then(async (answer) => (answer.status === 201 ? created.push(((await answer.json()) as { id: string }).id) : (failed += 1)))
        .catch(() => (failed += 1));
    }
  })();
  return {
    created,
    failed: () => failed,
    async stop() {
      running = false;
      await done;
      await sleep(500); // the last creations answer
    },
  };
}

/**
 * What became of the bank's notifications from `since` on, once the shared inbox has settled (every row processed; a
 * row claimed by the killed instance waits for its lease, 60 s): `lost` counts notifications the console acknowledged
 * (2xx) with no inbox row for that event and object processed after it; `givenUp`, rows settled as dead letters;
 * `takenAgain`, rows claimed more than once (after a kill or a stop gave them back), which the index records once
 * (an unchanged object gets no new version).
 */
async function notificationOutcomes(url: string, since: Date, created: string[]) {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = Date.now();
    const unsettled = async () =>
      Number((await client.query("SELECT count(*) AS n FROM console.bank_event_inbox WHERE state <> 'processed'")).rows[0].n);
    while ((await unsettled()) > 0 && Date.now() - started < 120_000) await sleep(500);
    const { rows } = await client.query(
      `SELECT
         (SELECT count(*) FROM sandbox.webhook_delivery_attempts a WHERE a.attempted_at >= $1 AND a.status_code BETWEEN 200 AND 299) AS acknowledged,
         (SELECT count(*) FROM sandbox.webhook_delivery_attempts a WHERE a.attempted_at >= $1 AND a.status_code BETWEEN 200 AND 299
            AND NOT EXISTS (SELECT 1 FROM console.bank_event_inbox i WHERE i.environment = 'sandbox' AND i.event = a.event
              AND i.object_id = a.object_id AND i.state = 'processed' AND i.processed_at >= a.attempted_at)) AS lost,
         (SELECT count(*) FROM console.bank_event_inbox WHERE received_at >= $1 AND outcome = 'dead_letter') AS given_up,
         (SELECT count(*) FROM console.bank_event_inbox WHERE received_at >= $1 AND attempts > 1) AS taken_again,
         (SELECT count(*) FROM console.bank_event_inbox WHERE state <> 'processed') AS unsettled,
         (SELECT count(*) FROM unnest($2::text[]) AS created(id)
            WHERE NOT EXISTS (SELECT 1 FROM console.bank_objects o WHERE o.environment = 'sandbox' AND o.id = created.id)) AS missing`,
      [since, created],
    );
    const row = rows[0] as Record<string, string>;
    return { ...Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])), settledMs: Date.now() - started } as {
      acknowledged: number;
      lost: number;
      given_up: number;
      taken_again: number;
      unsettled: number;
      missing: number;
      settledMs: number;
    };
  } finally {
    await client.end();
  }
}

/**
 * Throughput through HAProxy for `seconds`, once the running instances are quiet (a new instance builds its index in
 * the background), with the CPU per request of the instances together, of the sandbox bank and of PostgreSQL.
 */
async function throughput(cluster: Cluster, cookie: string, paths: string[], others: { bank?: number; database?: number }) {
  const running = cluster.instances.filter((instance) => instance.service.child.exitCode === null && instance.service.child.signalCode === null);
  for (const instance of running) await waitUntilQuiet(instance.service.child.pid, 120_000);
  const pids = [...running.map((instance) => instance.service.child.pid), others.bank, others.database];
  const cpuBefore = pids.map((pid) => cpuSecondsOfTree(pid) ?? 0);
  const started = Date.now();
  const load = steadyLoad(cluster.url, cookie, paths, connections);
  await sleep(seconds * 1000);
  await load.stop();
  const elapsed = (Date.now() - started) / 1000;
  const cpuMs = pids.map((pid, index) => ((cpuSecondsOfTree(pid) ?? 0) - cpuBefore[index]!) * 1000);
  const total = load.outcomes.length;
  return {
    instances: running.length,
    perSecond: total / elapsed,
    failed: load.outcomes.filter((outcome) => !outcome.ok).length,
    consoleCpuMs: cpuMs.slice(0, running.length).reduce((sum, ms) => sum + ms, 0) / total,
    bankCpuMs: cpuMs.at(-2)! / total,
    databaseCpuMs: others.database === undefined ? null : cpuMs.at(-1)! / total,
  };
}

/**
 * A live page's stream through HAProxy, as components/live/live-provider.tsx keeps it: reopened from the last id
 * after an end "restarting" (at once) or a dropped connection (after 1 s); each gap from the end to the next `ready`
 * is recorded.
 */
function liveStream(url: string, cookie: string) {
  const gaps: number[] = [];
  let signedOut = 0;
  let lastId: string | undefined;
  let running = true;
  const controller = new AbortController();
  const run = async () => {
    let endedAt: number | undefined;
    while (running) {
      let wait = 0;
      try {
        const answer = await fetch(`${url}/api/live${lastId ? `?after=${lastId}` : ""}`, { headers: { cookie }, signal: controller.signal });
        if (answer.status !== 200 || !answer.body) throw new Error(`HTTP ${answer.status}`);
        const decoder = new TextDecoder();
        let buffer = "";
        for await (const chunk of answer.body) {
          buffer += decoder.decode(chunk, { stream: true });
          let split;
          while ((split = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, split);
            buffer = buffer.slice(split + 2);
            const field = (name: string) => block.match(new RegExp(`^${name}: (.*)$`, "m"))?.[1];
            if (field("id")) lastId = field("id");
            if (field("event") === "ready" && endedAt !== undefined) {
              gaps.push(Date.now() - endedAt);
              endedAt = undefined;
            }
            if (field("event") === "end" && !field("data")?.includes("restarting")) signedOut += 1;
          }
        }
      } catch {
        wait = 1000;
      }
      if (!running) break;
      endedAt ??= Date.now();
      await sleep(wait);
    }
  };
  const done = run();
  return {
    gaps,
    signedOut: () => signedOut,
    async stop() {
      running = false;
      controller.abort();
      await done.catch(() => {});
    },
  };
}

const dataRoot = mkdtempSync(path.join(tmpdir(), "bench-cluster-"));
const database = await scratchPostgres(`bench_cluster_${process.pid}`);
if (!database) process.exit(1);
ensureConsoleBuilt();
const port = await portRun(instanceCount + 1);
const sandboxPort = await freePort();
const shared = { ...process.env, LOG_LEVEL: "warn", DATA_ROOT: dataRoot, SANDBOX_PORT: String(sandboxPort), HOST: "127.0.0.1" };
// PORT: the sandbox accepts webhooks to a loopback address only on the console's own (here HAProxy's) port.
const sandbox = startService("sandbox", process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
  ...shared,
  PORT: String(port),
  SANDBOX_DATABASE_URL: database.url,
});
let cluster: Cluster | undefined;
try {
  await waitUntilReady(`http://127.0.0.1:${sandboxPort}/health`, sandbox);
  benchLog(`starting ${instanceCount} console instances and HAProxy on port ${port}`);
  cluster = await startCluster({
    host: "127.0.0.1",
    port,
    instances: instanceCount,
    env: {
      ...shared,
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("base64"),
      CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      AUTH_TRUST_HOST: "true",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      CONSOLE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Only notifications index the bench's new objects: the sweep would pick up one that was lost.
      INDEX_SWEEP_INTERVAL_MS: "3600000",
      TRUSTED_PROXIES: "127.0.0.1",
    },
  });
  const cookie = await viewerSessionCookie(cluster.url);
  const list = (await (await fetch(`${cluster.url}/api/bank/ach?page_size=50`, { headers: { cookie } })).json()) as { data: Array<{ id: string }> };
  const paths = ["/api/bank/ach?page_size=50", ...list.data.slice(0, 10).map((transfer) => `/api/bank/ach/${transfer.id}`)];

  const others = { bank: sandbox.child.pid, database: await postmasterPid(database.url) };
  benchLog("warming up every instance");
  await throughput(cluster, cookie, paths, others);
  const all = await throughput(cluster, cookie, paths, others);
  benchLog("throughput with one instance (the others stopped)");
  for (const instance of cluster.instances.slice(1)) await instance.stop();
  await sleep(1500); // HAProxy's checks (every second) mark them down
  const one = await throughput(cluster, cookie, paths, others);
  for (const instance of cluster.instances.slice(1)) await instance.start();
  await sleep(1500);

  benchLog("faults under steady load: SIGKILL, restart, rolling restart");
  const faultsStarted = new Date();
  const streams = Array.from({ length: liveStreams }, () => liveStream(cluster!.url, cookie));
  const load = steadyLoad(cluster.url, cookie, paths, Math.max(2, connections / 2));
  const changes = bankChanges(`http://127.0.0.1:${sandboxPort}`, changesPerSecond);
  await sleep(3000);
  const killStarted = Date.now();
  await cluster.instances[0]!.kill();
  await sleep(3000);
  await cluster.instances[0]!.start();
  const killEnded = Date.now();
  await sleep(3000);
  const rollingStarted = Date.now();
  const exitCodes: Array<number | null> = [];
  const stopTimes: number[] = [];
  for (const instance of cluster.instances) {
    const stopping = Date.now();
    exitCodes.push(await instance.stop());
    stopTimes.push(Date.now() - stopping);
    await instance.start();
    await sleep(1500); // rise: HAProxy's next check takes the new process in
  }
  const rollingEnded = Date.now();
  await sleep(3000);
  await load.stop();
  await changes.stop();
  for (const stream of streams) await stream.stop();
  benchLog("waiting for the inbox to settle");
  const notifications = await notificationOutcomes(database.url, faultsStarted, changes.created);

  const failedWithin = (from: number, to: number) => load.outcomes.filter((outcome) => !outcome.ok && outcome.at >= from && outcome.at <= to);
  const atKill = failedWithin(killStarted, killEnded);
  const duringRolling = failedWithin(rollingStarted, rollingEnded);
  const gaps = streams.flatMap((stream) => stream.gaps).sort((a, b) => a - b);
  const report = [
    `## bench:cluster (${instanceCount} instances behind HAProxy, PostgreSQL, ${connections} readers, ${seconds} s per throughput run)`,
    "",
    "| instances | requests/s | failed | CPU ms per request: console (all instances) | sandbox bank | PostgreSQL |",
    "|---|---|---|---|---|---|",
    ...[one, all].map(
      (run) =>
        `| ${run.instances} | ${run.perSecond.toFixed(0)} | ${run.failed} | ${run.consoleCpuMs.toFixed(2)} | ${run.bankCpuMs.toFixed(2)} | ${run.databaseCpuMs?.toFixed(2) ?? "n/a"} |`,
    ),
    "",
    `| fault | requests | failed | target |`,
    "|---|---|---|---|",
    `| SIGKILL one instance, start it again | ${load.outcomes.filter((outcome) => outcome.at >= killStarted && outcome.at <= killEnded).length} | ${atKill.length} | those in flight on it |`,
    `| rolling restart (SIGTERM, start, next) | ${load.outcomes.filter((outcome) => outcome.at >= rollingStarted && outcome.at <= rollingEnded).length} | ${duringRolling.length} | 0 |`,
    "",
    `Clean stops: exit codes ${exitCodes.join(", ")}; SIGTERM to exit ${stopTimes.map((ms) => `${ms} ms`).join(", ")}.`,
    `Live streams: ${liveStreams} open through HAProxy; ${gaps.length} reconnections, caught up again in p50 ${percentile(gaps, 50)} ms, ` +
      `p95 ${percentile(gaps, 95)} ms, max ${gaps.at(-1) ?? "-"} ms (target p95 < 5000 ms); sent to sign-in: ${streams.reduce((sum, stream) => sum + stream.signedOut(), 0)}.`,
    ...(atKill.length + duringRolling.length > 0
      ? ["", "Failures:", ...[...atKill, ...duringRolling].slice(0, 20).map((outcome) => `- ${new Date(outcome.at).toISOString()} ${outcome.what}`)]
      : []),
    `Bank changes during the faults: ${changes.created.length} counterparties created at ${changesPerSecond}/s (${changes.failed()} creations failed), ` +
      `${notifications.missing} of them missing from the index at the end (target 0). Notifications: ${notifications.acknowledged} acknowledged by the console, ` +
      `${notifications.lost} with no inbox row processed after it (target 0), ${notifications.given_up} given up, ${notifications.taken_again} claimed more than once; ` +
      `the inbox settled ${(notifications.settledMs / 1000).toFixed(1)} s after the load ended (${notifications.unsettled} rows left).`,
  ];
  console.log(report.join("\n"));
} finally {
  await cluster?.stop();
  sandbox.stop();
  await sleep(500);
  await database.drop().catch((error: unknown) => benchLog(`could not drop the scratch database: ${error}`));
  rmSync(dataRoot, { recursive: true, force: true });
}
