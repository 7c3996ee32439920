import type { Cluster } from "../../lib/cluster";
import { cpuSecondsOfTree, waitUntilQuiet } from "../run";
import { connections, seconds, sleep } from "./settings";

export interface Outcome {
  at: number;
  ok: boolean;
  what: string;
}

/**
 * One signed-in GET through HAProxy, its outcome kept with its time (any answer but 200, or none, is a failure). It
 * waits as long as HAProxy waits for an instance (`timeout server`): a slow answer on a busy machine is not a failure.
 */
async function read(url: string, cookie: string, path: string, outcomes: Outcome[]): Promise<void> {
  try {
    const answer = await fetch(`${url}${path}`, { headers: { cookie }, signal: AbortSignal.timeout(60_000) });
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

/**
 * The search route allows one user 60 searches a minute (lib/api/rate-limit.ts), and every reader is the same viewer:
 * searches go at one every 1.25 s, beside the readers, so none is refused by the limit.
 */
export const searchEveryMs = 1250;

/**
 * `readers` readers, each reading the list and a detail in turn through HAProxy until stopped, and with `searches`, a
 * search of the index every `searchEveryMs` beside them; every request's outcome is kept with its time, so failures
 * can be told apart by phase.
 */
export function steadyLoad(url: string, cookie: string, paths: string[], readers: number, searches: string[] = []) {
  const outcomes: Outcome[] = [];
  let running = true;
  const reader = async (offset: number) => {
    for (let turn = offset; running; turn++) await read(url, cookie, paths[turn % paths.length]!, outcomes);
  };
  const searcher = async () => {
    for (let turn = 0; running && searches.length > 0; turn++) {
      const started = Date.now();
      await read(url, cookie, `/api/search?q=${encodeURIComponent(searches[turn % searches.length]!)}`, outcomes);
      await sleep(Math.max(0, searchEveryMs - (Date.now() - started)));
    }
  };
  const done = Promise.all([...Array.from({ length: readers }, (_, index) => reader(index)), searcher()]);
  return {
    outcomes,
    async stop() {
      running = false;
      await done;
    },
  };
}

/**
 * Throughput through HAProxy for `seconds`, once the running instances are quiet (a new instance builds its index in
 * the background), with the CPU per request of the instances together, of the sandbox bank and of PostgreSQL.
 */
export async function throughput(cluster: Cluster, cookie: string, paths: string[], others: { bank?: number; database?: number }) {
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
