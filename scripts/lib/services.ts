import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, type WriteStream } from "node:fs";

/**
 * A child process in the supervisor's process group: a group kill (Ctrl+C, Playwright stopping its web server)
 * reaches every service, and `stop()` asks one to end.
 */
export interface Service {
  name: string;
  child: ChildProcess;
  stop(): void;
}

/** Starts a service; its output goes to the terminal prefixed with its name, and to `logFile` when given. */
export function startService(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, logFile?: WriteStream): Service {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => `[${name}] ${line}\n`)
      .join("");
  child.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(prefix(chunk));
    logFile?.write(prefix(chunk));
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    process.stderr.write(prefix(chunk));
    logFile?.write(prefix(chunk));
  });
  return {
    name,
    child,
    stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
    },
  };
}

/** Polls `url` until it answers 2xx; fails early if `service` exits first. */
export async function waitUntilReady(url: string, service: Service, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited with code ${service.child.exitCode} before it was ready`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${service.name} was not ready at ${url} within ${timeoutMs / 1000} s`);
}

/** Resident memory in bytes of a process and all its descendants (Linux /proc). */
export function residentMemoryOfTree(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(entry);
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), pid]);
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // the process ended while we looked
    }
  }
  const walk = (pid: number): number => (rss.get(pid) ?? 0) + (children.get(pid) ?? []).reduce((sum, child) => sum + walk(child), 0);
  return walk(rootPid);
}
