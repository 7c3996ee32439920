/**
 * `npm run bench:cluster`: the console as `npm run cluster` runs it (HAProxy in front of CLUSTER_INSTANCES console
 * processes, default 3, on one PostgreSQL database), under a steady signed-in load of list and detail reads with
 * searches of the index beside them, with faults: one instance killed (SIGKILL) and started again, then every instance
 * restarted one after another (SIGTERM, start, next: a rolling deploy). Prints a Markdown report on stdout
 * (scripts/bench/cluster/report.ts):
 * - throughput through HAProxy with 1 instance and with all, and CPU ms per request of the instances together, of the
 *   sandbox bank and of PostgreSQL (the whole server: other clients of it are counted too);
 * - failed requests (any answer but 200, or no answer) at the kill (target: at most those HAProxy had in flight on the
 *   killed instance) and during the rolling restart (target 0), searches among them (one every 1.25 s, under the
 *   search route's limit per user);
 * - live streams (BENCH_LIVE_STREAMS, default 4, open through HAProxy): how long each took to be caught up again
 *   after its stream ended (p95, target under 5 s), whether one was sent to sign-in, and changes it missed or was sent
 *   twice (target 0);
 * - bank changes during the faults (BENCH_CHANGES_PER_SECOND new counterparties a second, default 100, each a
 *   notification): how many are missing from the index at the end or indexed twice (target 0), notifications
 *   acknowledged and lost (target 0), claimed more than once, and how long the inbox took to settle.
 * Exits 1 when a target is missed (the report's last lines name which). `--short` (or BENCH_CLUSTER_SHORT=1): two
 * instances, no throughput runs, 2 s steady phases, 2 live streams, 5 changes a second, about a minute and a half:
 * the last gate of `npm test`, after the end-to-end tests (scripts/test.ts).
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * and HAProxy (installed as `npm run cluster` installs it). Options: BENCH_SECONDS (each throughput run, default 8),
 * BENCH_CONNECTIONS (concurrent readers in the throughput runs, default 8, 4 in the short form; half as many, at least 2,
 * during the faults).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureConsoleBuilt } from "../lib/build";
import { clusterInstanceEnv, freePortRun, startCluster, type Cluster } from "../lib/cluster";
import { startService, waitUntilReady } from "../lib/services";
import { bankChanges, notificationOutcomes, postmasterPid } from "./cluster/bank-changes";
import { liveStream } from "./cluster/live-stream";
import { steadyLoad, throughput } from "./cluster/load";
import { clusterReport, missedTargets, type ThroughputRun } from "./cluster/report";
import { changesPerSecond, connections, instanceCount, liveStreams, short, sleep, steadyMs } from "./cluster/settings";
import { benchLog, freePort, scratchPostgres } from "./run";
import { viewerSessionCookie } from "./session-cookie";

const dataRoot = mkdtempSync(path.join(tmpdir(), "bench-cluster-"));
const database = await scratchPostgres(`bench_cluster_${process.pid}`);
if (!database) process.exit(1);
const benchStarted = Date.now();
ensureConsoleBuilt();
const port = await freePortRun(instanceCount + 1);
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
      ...clusterInstanceEnv(shared, database.url, `http://127.0.0.1:${port}`),
      // Only notifications index the bench's new objects: the sweep would pick up one that was lost.
      INDEX_SWEEP_INTERVAL_MS: "3600000",
    },
  });
  const cookie = await viewerSessionCookie(cluster.url);
  const list = (await (await fetch(`${cluster.url}/api/bank/ach?page_size=50`, { headers: { cookie } })).json()) as { data: Array<{ id: string }> };
  const paths = ["/api/bank/ach?page_size=50", ...list.data.slice(0, 10).map((transfer) => `/api/bank/ach/${transfer.id}`)];
  // Searches as staff type them: an id, a name, an amount (docs/search.md), over the demo set's index.
  const searches = [list.data[3]!.id, "Miller", "$250.00", list.data[7]!.id.slice(0, 12)];

  const runs: ThroughputRun[] = [];
  if (!short) {
    const others = { bank: sandbox.child.pid, database: await postmasterPid(database.url) };
    benchLog("warming up every instance");
    await throughput(cluster, cookie, paths, others);
    const all = await throughput(cluster, cookie, paths, others);
    benchLog("throughput with one instance (the others stopped)");
    for (const instance of cluster.instances.slice(1)) await instance.stop();
    await sleep(1500); // HAProxy's checks (every second) mark them down
    runs.push(await throughput(cluster, cookie, paths, others), all);
    for (const instance of cluster.instances.slice(1)) {
      await instance.start();
      await cluster.inService(instance.name);
    }
  }

  benchLog("faults under steady load: SIGKILL, restart, rolling restart");
  const faultsStarted = new Date();
  const streams = Array.from({ length: liveStreams }, () => liveStream(cluster!.url, cookie));
  // A stream starts from the newest change when it opens: the bank's changes begin once every one has.
  await Promise.race([
    Promise.all(streams.map((stream) => stream.ready)),
    sleep(60_000).then(() => Promise.reject(new Error("the live streams did not open within 60 s"))),
  ]);
  const load = steadyLoad(cluster.url, cookie, paths, Math.max(2, connections / 2), searches);
  const changes = bankChanges(`http://127.0.0.1:${sandboxPort}`, changesPerSecond);
  await sleep(steadyMs);
  const inFlightAtKill = await cluster.inFlight(cluster.instances[0]!.name);
  const killStarted = Date.now();
  await cluster.instances[0]!.kill();
  await sleep(steadyMs);
  await cluster.instances[0]!.start();
  await cluster.inService(cluster.instances[0]!.name);
  const killEnded = Date.now();
  await sleep(steadyMs);
  const rollingStarted = Date.now();
  const exitCodes: Array<number | null> = [];
  const stopTimes: number[] = [];
  for (const instance of cluster.instances) {
    const stopping = Date.now();
    exitCodes.push(await instance.stop());
    stopTimes.push(Date.now() - stopping);
    await instance.start();
    await cluster.inService(instance.name);
  }
  const rollingEnded = Date.now();
  await sleep(steadyMs);
  await load.stop();
  await changes.stop();
  benchLog("waiting for the inbox to settle");
  const notifications = await notificationOutcomes(database.url, faultsStarted, changes.created);
  await sleep(2500); // the live feed's poll (every 2 s) reaches the streams with the last changes
  const downAtTheEnd = streams.map((stream) => stream.downForMs());
  for (const stream of streams) await stream.stop();

  const faults = {
    outcomes: load.outcomes,
    kill: { from: killStarted, to: killEnded },
    rolling: { from: rollingStarted, to: rollingEnded },
    inFlightAtKill,
    exitCodes,
    stopTimes,
    gaps: streams.flatMap((stream) => stream.gaps).sort((a, b) => a - b),
    signedOut: streams.reduce((sum, stream) => sum + stream.signedOut(), 0),
    streams: streams.map((stream, index) => ({
      missed: changes.created.filter((id) => !stream.objects.has(id)).length,
      downAtTheEndMs: downAtTheEnd[index]!,
      shownTwice: stream.shownTwice(),
      resets: stream.resets(),
    })),
    changes: { created: changes.created.length, failed: changes.failed() },
    notifications,
  };
  faults.streams.forEach((stream, index) => {
    if (stream.missed > 0 || stream.downAtTheEndMs > 0) benchLog(`live stream ${index + 1}:\n  ${streams[index]!.history.join("\n  ")}`);
  });
  console.log(clusterReport(runs, faults));
  process.exitCode = missedTargets(faults).length > 0 ? 1 : 0;
} finally {
  await cluster?.stop();
  sandbox.stop();
  await sleep(500);
  await database.drop().catch((error: unknown) => benchLog(`could not drop the scratch database: ${error}`));
  rmSync(dataRoot, { recursive: true, force: true });
  benchLog(`done in ${((Date.now() - benchStarted) / 1000).toFixed(0)} s`);
}
