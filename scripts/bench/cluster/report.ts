import { percentile } from "../stats";
import type { Outcome } from "./load";
import { changesPerSecond, connections, instanceCount, liveStreams, seconds } from "./settings";

export interface ThroughputRun {
  instances: number;
  perSecond: number;
  failed: number;
  consoleCpuMs: number;
  bankCpuMs: number;
  databaseCpuMs: number | null;
}

export interface FaultsRun {
  outcomes: Outcome[];
  kill: { from: number; to: number };
  rolling: { from: number; to: number };
  exitCodes: Array<number | null>;
  stopTimes: number[];
  gaps: number[];
  signedOut: number;
  changes: { created: number; failed: number };
  notifications: { acknowledged: number; lost: number; given_up: number; taken_again: number; unsettled: number; missing: number; settledMs: number };
}

/** The Markdown report bench:cluster prints on stdout. */
export function clusterReport(runs: ThroughputRun[], faults: FaultsRun): string {
  const within = ({ from, to }: { from: number; to: number }) => faults.outcomes.filter((outcome) => outcome.at >= from && outcome.at <= to);
  const failed = (outcomes: Outcome[]) => outcomes.filter((outcome) => !outcome.ok);
  const atKill = failed(within(faults.kill));
  const duringRolling = failed(within(faults.rolling));
  const searches = faults.outcomes.filter((outcome) => outcome.what.includes(" /api/search?"));
  const { gaps, notifications } = faults;
  return [
    `## bench:cluster (${instanceCount} instances behind HAProxy, PostgreSQL, ${connections} readers, ${seconds} s per throughput run)`,
    "",
    "| instances | requests/s | failed | CPU ms per request: console (all instances) | sandbox bank | PostgreSQL |",
    "|---|---|---|---|---|---|",
    ...runs.map(
      (run) =>
        `| ${run.instances} | ${run.perSecond.toFixed(0)} | ${run.failed} | ${run.consoleCpuMs.toFixed(2)} | ${run.bankCpuMs.toFixed(2)} | ${run.databaseCpuMs?.toFixed(2) ?? "n/a"} |`,
    ),
    "",
    `| fault | requests | failed | target |`,
    "|---|---|---|---|",
    `| SIGKILL one instance, start it again | ${within(faults.kill).length} | ${atKill.length} | those in flight on it |`,
    `| rolling restart (SIGTERM, start, next) | ${within(faults.rolling).length} | ${duringRolling.length} | 0 |`,
    "",
    `Searches in the mix during the faults: ${searches.length}, ${failed(searches).length} failed.`,
    `Clean stops: exit codes ${faults.exitCodes.join(", ")}; SIGTERM to exit ${faults.stopTimes.map((ms) => `${ms} ms`).join(", ")}.`,
    `Live streams: ${liveStreams} open through HAProxy; ${gaps.length} reconnections, caught up again in p50 ${percentile(gaps, 50)} ms, ` +
      `p95 ${percentile(gaps, 95)} ms, max ${gaps.at(-1) ?? "-"} ms (target p95 < 5000 ms); sent to sign-in: ${faults.signedOut}.`,
    ...(atKill.length + duringRolling.length > 0
      ? ["", "Failures:", ...[...atKill, ...duringRolling].slice(0, 20).map((outcome) => `- ${new Date(outcome.at).toISOString()} ${outcome.what}`)]
      : []),
    `Bank changes during the faults: ${faults.changes.created} counterparties created at ${changesPerSecond}/s (${faults.changes.failed} creations failed), ` +
      `${notifications.missing} of them missing from the index at the end (target 0). Notifications: ${notifications.acknowledged} acknowledged by the console, ` +
      `${notifications.lost} with no inbox row processed after it (target 0), ${notifications.given_up} given up, ${notifications.taken_again} claimed more than once; ` +
      `the inbox settled ${(notifications.settledMs / 1000).toFixed(1)} s after the load ended (${notifications.unsettled} rows left).`,
  ].join("\n");
}
