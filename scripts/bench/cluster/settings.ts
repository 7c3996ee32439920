/** bench:cluster's options (scripts/bench/cluster.ts lists them), read once. */

const wholeFromEnv = (name: string, fallback: number) => {
  const text = process.env[name];
  if (text === undefined) return fallback;
  if (!/^[1-9]\d{0,3}$/.test(text)) throw new Error(`${name}: "${text}" is not a whole number from 1 to 9999`);
  return Number(text);
};
/**
 * The short form (`--short` or BENCH_CLUSTER_SHORT=1, what `npm test` runs): two instances, no throughput runs, short
 * steady phases around one kill and one rolling restart, and a lighter load, so it fits a busy machine.
 */
export const short = process.argv.includes("--short") || process.env.BENCH_CLUSTER_SHORT === "1";
export const seconds = wholeFromEnv("BENCH_SECONDS", 8);
export const connections = wholeFromEnv("BENCH_CONNECTIONS", short ? 4 : 8);
export const instanceCount = wholeFromEnv("CLUSTER_INSTANCES", short ? 2 : 3);
export const liveStreams = Math.min(5, wholeFromEnv("BENCH_LIVE_STREAMS", short ? 2 : 4));
export const changesPerSecond = wholeFromEnv("BENCH_CHANGES_PER_SECOND", short ? 5 : 100);
/** How long the load runs steadily before the kill, between the faults and after them. */
export const steadyMs = short ? 2000 : 3000;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
