import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { authorizationHeader } from "@/lib/bank/transport";
import { createScratchDatabase, type ScratchDatabase } from "@/lib/db/scratch-database";
import { readEnv } from "@/lib/env/read-env";
import { sandboxEnvSchema } from "@/lib/env/schema";

/** Progress and notes go to stderr, so stdout stays the report. */
export const benchLog = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/**
 * The `authorization` header benches send to the sandbox bank directly: its API key (BANK_API_KEY_ID and _SECRET, the
 * demo key unless set), the one the sandboxes they start are given.
 */
export const sandboxBankAuthorization = (() => {
  const { BANK_API_KEY_ID, BANK_API_KEY_SECRET } = readEnv(sandboxEnvSchema);
  return authorizationHeader({ type: "basic", keyId: BANK_API_KEY_ID, secret: BANK_API_KEY_SECRET });
})();

/** Where benches make their scratch PostgreSQL databases. */
export const postgresAdminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh PostgreSQL database named `name` for a bench, or undefined (said on stderr) when no server answers. */
export async function scratchPostgres(name: string): Promise<ScratchDatabase | undefined> {
  try {
    return await createScratchDatabase(postgresAdminUrl, name);
  } catch (error) {
    benchLog(`PostgreSQL not usable at ${postgresAdminUrl} (${error instanceof Error ? error.message : error}): skipping it`);
    return undefined;
  }
}

/**
 * Runs `measure` with a fresh sandbox and console PostgreSQL database (`<prefix>_sandbox`, `<prefix>_console`), both
 * dropped afterwards; skipped (said on stderr) when no server answers.
 */
export async function withScratchPostgresPair(
  prefix: string,
  measure: (databases: { sandbox: ScratchDatabase; console: ScratchDatabase }) => Promise<void>,
): Promise<void> {
  const sandbox = await scratchPostgres(`${prefix}_sandbox`);
  const consoleDatabase = sandbox && (await scratchPostgres(`${prefix}_console`));
  try {
    if (sandbox && consoleDatabase) await measure({ sandbox, console: consoleDatabase });
  } finally {
    await consoleDatabase?.drop();
    await sandbox?.drop();
  }
}

/**
 * Runs `measure` with a fresh embedded PGlite kept on disk, as the console keeps its own (in memory, a million objects
 * outgrew the machine), removed afterwards.
 */
export async function withScratchPglite(measure: (database: ScratchDatabase) => Promise<void>): Promise<void> {
  const embedded = await createScratchDatabase(undefined, "", { onDisk: true });
  try {
    await measure(embedded);
  } finally {
    await embedded.drop();
  }
}

const running = new Set<ChildProcess>();
// However the bench ends (done, failed, interrupted), it leaves no server or database process behind.
process.on("exit", () => running.forEach((child) => child.kill("SIGKILL")));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(1));

/** A helper process of the benchmark; output goes to the bench's stderr so stdout stays the report. */
export function startChild(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  child.on("exit", () => running.delete(child));
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  return child;
}

/** The first line a child prints that parses as JSON (children announce their URL or port that way). */
export function firstJsonLine<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      process.stderr.write(`${line}\n`);
      try {
        const parsed = JSON.parse(line) as T;
        if (parsed && typeof parsed === "object") resolve(parsed);
      } catch {
        // not the announcement
      }
    });
    child.on("exit", (code) => reject(new Error(`child exited (${code}) before announcing itself`)));
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

export async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before ${url} answered`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return Date.now() - started;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

export interface LoadResult {
  /** Latency in ms: fractional in the console bench; p50 and p99 in whole milliseconds from measure() (autocannon's own). */
  mean: number;
  p50: number;
  p99: number;
  requestsPerSecond: number;
  non2xx: number;
  /** CPU milliseconds the measured server (with its children) spent per request, when known (console bench). */
  cpuMsPerRequest?: number | null;
}

/** Warm up, then measure: fixed duration, fixed concurrency, loopback only, stops by itself. */
export async function measure(url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult> {
  await autocannon({ url, headers, connections: 10, duration: 2 });
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  return {
    mean: result.latency.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: result.requests.average,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * CPU seconds (user + system) used so far by a process and every process under it, from /proc (Linux only; null
 * elsewhere). Measured per server around a load run, it gives CPU per request: steadier than req/s on a machine whose
 * few cores the load tool, the bank and the server share.
 */
export function cpuSecondsOfTree(rootPid: number | undefined): number | null {
  if (rootPid === undefined || !existsSync("/proc/self/stat")) return null;
  const ticksPerSecond = 100; // USER_HZ: 100 on every Linux Node supports
  const stats = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        // Fields after the command (which may hold spaces) in parentheses: state ppid ... utime(14) stime(15).
        const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
      } catch {
        return []; // exited meanwhile
      }
    });
  const inTree = new Set([rootPid]);
  for (let added = true; added;) {
    added = false;
    for (const stat of stats) {
      if (!inTree.has(stat.pid) && inTree.has(stat.ppid)) {
        inTree.add(stat.pid);
        added = true;
      }
    }
  }
  return stats.filter((stat) => inTree.has(stat.pid)).reduce((sum, stat) => sum + stat.ticks, 0) / ticksPerSecond;
}

/** A TCP port free on 127.0.0.1 right now, for a server a benchmark starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Waits until the process tree under `rootPid` is quiet (under 10% of a core for 3 s in a row; at most `timeoutMs`):
 * a console just started builds its index of the bank in the background, which would be measured with the pages.
 */
export async function waitUntilQuiet(rootPid: number | undefined, timeoutMs = 180_000): Promise<void> {
  let quietSeconds = 0;
  const first = cpuSecondsOfTree(rootPid);
  if (first === null) return;
  let previous: number = first;
  for (const started = Date.now(); quietSeconds < 3 && Date.now() - started < timeoutMs;) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now: number = cpuSecondsOfTree(rootPid) ?? previous;
    quietSeconds = now - previous < 0.1 ? quietSeconds + 1 : 0;
    previous = now;
  }
  benchLog(quietSeconds >= 3 ? "the servers are quiet" : `the servers were still busy after ${timeoutMs / 1000} s: measuring anyway`);
}
