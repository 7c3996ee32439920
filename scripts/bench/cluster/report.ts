import { percentile } from "../stats";
import type { NotificationOutcomes } from "./bank-changes";
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
  /** Requests HAProxy had open on the instance just before it was killed (its live streams included). */
  inFlightAtKill: number;
  exitCodes: Array<number | null>;
  stopTimes: number[];
  gaps: number[];
  signedOut: number;
  /**
   * Per live stream: changes of the bench's new objects it was never sent, versions sent twice, resets, and how long
   * it had been down when the run ended (0: caught up).
   */
  streams: Array<{ missed: number; shownTwice: number; resets: number; downAtTheEndMs: number }>;
  changes: { created: number; failed: number };
  notifications: NotificationOutcomes;
}

const within = (faults: FaultsRun, { from, to }: { from: number; to: number }) =>
  faults.outcomes.filter((outcome) => outcome.at >= from && outcome.at <= to);
const failed = (outcomes: Outcome[]) => outcomes.filter((outcome) => !outcome.ok);
const sum = (numbers: number[]) => numbers.reduce((total, number) => total + number, 0);

/** The issue's targets the faults run missed, each in words (none: every target met). */
export function missedTargets(faults: FaultsRun): string[] {
  const atKill = failed(within(faults, faults.kill)).length;
  const duringRolling = failed(within(faults, faults.rolling)).length;
  const p95 = percentile(faults.gaps, 95);
  const { notifications, streams } = faults;
  return [
    atKill > faults.inFlightAtKill &&
      `${atKill} requests failed at the kill, more than the ${faults.inFlightAtKill} in flight on the killed instance`,
    duringRolling > 0 && `${duringRolling} requests failed during the rolling restart (target 0)`,
    faults.gaps.length === 0 && "no live stream reconnected (each should, at least once)",
    faults.gaps.length > 0 && p95 >= 5000 && `live streams caught up again in p95 ${p95} ms (target under 5000 ms)`,
    faults.signedOut > 0 && `${faults.signedOut} live streams were sent to sign-in`,
    streams.some((stream) => stream.downAtTheEndMs > 0) &&
      `live streams still down at the end, for ${streams.map((stream) => `${stream.downAtTheEndMs} ms`).join(", ")}`,
    notifications.lost + notifications.missing > 0 &&
      `${notifications.lost} notifications lost, ${notifications.missing} new objects missing from the index (target 0)`,
    notifications.indexed_twice > 0 && `${notifications.indexed_twice} new objects indexed twice (target 0)`,
    sum(streams.map((stream) => stream.shownTwice)) > 0 &&
      `${sum(streams.map((stream) => stream.shownTwice))} changes sent twice to a live stream (target 0)`,
    sum(streams.map((stream) => stream.missed)) > 0 &&
      `live streams missed ${streams.map((stream) => stream.missed).join(", ")} changes of the new objects (target 0)`,
  ].filter((miss): miss is string => typeof miss === "string");
}

/** The Markdown report bench:cluster prints on stdout. */
export function clusterReport(runs: ThroughputRun[], faults: FaultsRun): string {
  const atKill = failed(within(faults, faults.kill));
  const duringRolling = failed(within(faults, faults.rolling));
  const searches = faults.outcomes.filter((outcome) => outcome.what.includes(" /api/search?"));
  const { gaps, notifications } = faults;
  return [
    `## bench:cluster (${instanceCount} instances behind HAProxy, PostgreSQL, ${connections} readers, ${seconds} s per throughput run)`,
    "",
    ...(runs.length > 0
      ? [
          "| instances | requests/s | failed | CPU ms per request: console (all instances) | sandbox bank | PostgreSQL |",
          "|---|---|---|---|---|---|",
          ...runs.map(
            (run) =>
              `| ${run.instances} | ${run.perSecond.toFixed(0)} | ${run.failed} | ${run.consoleCpuMs.toFixed(2)} | ${run.bankCpuMs.toFixed(2)} | ${run.databaseCpuMs?.toFixed(2) ?? "n/a"} |`,
          ),
          "",
        ]
      : []),
    `| fault | requests | failed | target |`,
    "|---|---|---|---|",
    `| SIGKILL one instance, start it again | ${within(faults, faults.kill).length} | ${atKill.length} | at most the ${faults.inFlightAtKill} in flight on it |`,
    `| rolling restart (SIGTERM, start, next) | ${within(faults, faults.rolling).length} | ${duringRolling.length} | 0 |`,
    "",
    `Searches in the mix during the faults: ${searches.length}, ${failed(searches).length} failed.`,
    `Clean stops: exit codes ${faults.exitCodes.join(", ")}; SIGTERM to exit ${faults.stopTimes.map((ms) => `${ms} ms`).join(", ")}.`,
    `Live streams: ${liveStreams} open through HAProxy; ${gaps.length} reconnections, caught up again in p50 ${percentile(gaps, 50)} ms, ` +
      `p95 ${percentile(gaps, 95)} ms, max ${gaps.at(-1) ?? "-"} ms (target p95 < 5000 ms); sent to sign-in: ${faults.signedOut}; ` +
      `changes of the new objects missed per stream: ${faults.streams.map((stream) => stream.missed).join(", ")}; ` +
      `down at the end: ${faults.streams.map((stream) => `${stream.downAtTheEndMs} ms`).join(", ")}; ` +
      `sent twice: ${sum(faults.streams.map((stream) => stream.shownTwice))}; resets: ${sum(faults.streams.map((stream) => stream.resets))}.`,
    ...(atKill.length + duringRolling.length > 0
      ? ["", "Failures:", ...[...atKill, ...duringRolling].slice(0, 20).map((outcome) => `- ${new Date(outcome.at).toISOString()} ${outcome.what}`)]
      : []),
    `Bank changes during the faults: ${faults.changes.created} counterparties created at ${changesPerSecond}/s (${faults.changes.failed} creations failed), ` +
      `${notifications.missing} of them missing from the index at the end (target 0). Notifications: ${notifications.acknowledged} acknowledged by the console, ` +
      `${notifications.lost} with no inbox row processed after it (target 0), ${notifications.refused} delivery attempts not acknowledged, ` +
      `${notifications.paused} deliveries paused (their webhook in error), ${notifications.given_up} given up, ${notifications.taken_again} claimed more than once, ` +
      `${notifications.indexed_twice} objects indexed twice (target 0); ` +
      `the inbox settled ${(notifications.settledMs / 1000).toFixed(1)} s after the load ended (${notifications.unsettled} rows left).`,
    "",
    ...(missedTargets(faults).length > 0 ? ["Targets missed:", ...missedTargets(faults).map((miss) => `- ${miss}`)] : ["Every target met."]),
  ].join("\n");
}
