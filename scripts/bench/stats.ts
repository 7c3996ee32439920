/** The benches' figures over a set of timings (in any order). */

/** Nearest-rank percentile `p` (0-100); NaN when there are no values. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1), 0)]!;
}

/** The middle value, or the mean of the two middle ones. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const spread = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) });

/** `run` once to warm what it reads, then `repeats` times timed: p50 and p95 in milliseconds. */
export async function timedRuns(run: () => Promise<unknown>, repeats: number): Promise<{ p50: number; p95: number }> {
  await run();
  const times: number[] = [];
  for (let index = 0; index < repeats; index += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return spread(times);
}
