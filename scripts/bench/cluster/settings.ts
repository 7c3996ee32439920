/** bench:cluster's options (scripts/bench/cluster.ts lists them), read once. */

const wholeFromEnv = (name: string, fallback: number) => {
  const text = process.env[name];
  if (text === undefined) return fallback;
  if (!/^[1-9]\d{0,3}$/.test(text)) throw new Error(`${name}: "${text}" is not a whole number from 1 to 9999`);
  return Number(text);
};
export const seconds = wholeFromEnv("BENCH_SECONDS", 8);
export const connections = wholeFromEnv("BENCH_CONNECTIONS", 8);
export const instanceCount = wholeFromEnv("CLUSTER_INSTANCES", 3);
export const liveStreams = Math.min(5, wholeFromEnv("BENCH_LIVE_STREAMS", 4));
export const changesPerSecond = wholeFromEnv("BENCH_CHANGES_PER_SECOND", 100);
export const bankAuth = { authorization: `Basic ${Buffer.from("sandbox-demo-key:sandbox-demo-secret-change-me").toString("base64")}` };
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
