import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { WriteStream } from "node:fs";
import { startService, waitUntilReady, type Service } from "./services";

/**
 * The first of `length` ports in a row free on 127.0.0.1: HAProxy takes the first and instance i the i-th after it
 * (startCluster), and a caller may keep the ones after those for its own services.
 */
export async function freePortRun(length: number): Promise<number> {
  const probe = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = createServer()
        .once("error", () => resolve(undefined))
        .listen(port, "127.0.0.1", () => {
          const bound = (server.address() as AddressInfo).port;
          server.close(() => resolve(bound));
        });
    });
  for (;;) {
    const first = await probe(0);
    if (first === undefined || first + length > 65_535) continue;
    const rest = await Promise.all(Array.from({ length: length - 1 }, (_, index) => probe(first + index + 1)));
    if (rest.every((port) => port !== undefined)) return first;
  }
}

/** A console instance behind the load balancer: started, stopped cleanly (SIGTERM), killed (SIGKILL), started again. */
export interface ClusterInstance {
  name: string;
  port: number;
  service: Service;
  /** Starts the instance (again) and waits until its readiness route answers 200. */
  start(): Promise<void>;
  /** SIGTERM, then waits for the exit: the clean stop of scripts/console-server.ts. */
  stop(): Promise<number | null>;
  /** SIGKILL: the instance dies holding whatever it held. */
  kill(): Promise<void>;
}

export interface ClusterOptions {
  host: string;
  /** Where HAProxy listens, in front of every instance. */
  port: number;
  /** Instance i (from 1) listens on 127.0.0.1:`port + i`. */
  instances: number;
  /** The environment every instance shares (database, secrets, CONSOLE_PUBLIC_URL); PORT and HOST are set per instance. */
  env: NodeJS.ProcessEnv;
  logFile?: WriteStream;
  /** How long an instance and HAProxy may take to answer their readiness route: a ceiling (default 120 s). */
  readyTimeoutMs?: number;
}

/** The HAProxy binary, installed from Debian's package when missing and running as root; otherwise a message saying how. */
export function ensureHaproxy(): string {
  const found = () => spawnSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" }).stdout.trim();
  if (found()) return found();
  if (process.getuid?.() !== 0) {
    throw new Error("HAProxy is not installed: run `sudo apt-get install -y haproxy` (Debian/Ubuntu), or install HAProxy 2.6 or later another way.");
  }
  console.error("HAProxy is not installed: installing Debian's haproxy package...");
  const install = spawnSync("sh", ["-c", "apt-get install -y haproxy || (apt-get update && apt-get install -y haproxy)"], {
    stdio: ["ignore", 2, 2],
  });
  if (install.status !== 0 || !found()) throw new Error("apt-get could not install haproxy; install it and run again.");
  return found();
}

/**
 * HAProxy's configuration for the console. Health checks on the readiness route every second: an instance that is
 * draining answers 503 (and closes its listener), so it is out within one check. A GET that finds no instance (refused,
 * closed without an answer, or 503) is sent again to another (`retry-on`, `option redispatch 1`: a new instance on
 * every retry), as long as nothing of the answer has reached the client; any other method is retried only when its
 * connection failed, so a change is never sent twice. Sessions live in PostgreSQL, so any instance serves any user: no
 * stickiness. `leastconn`, as live streams stay open for hours and pile up on the instances that were up when they
 * opened.
 */
export function haproxyConfig(options: {
  host: string;
  port: number;
  instances: Array<{ name: string; port: number }>;
  /** A Unix socket answering `show stat` (requests in flight per instance), when given. */
  statsSocket?: string;
}): string {
  return [
    "global",
    "  maxconn 4096",
    ...(options.statsSocket ? [`  stats socket ${options.statsSocket} mode 600 level user`] : []),
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    // Above the live streams' heartbeat (a comment every 15 s), so an open stream is never timed out.
    "  timeout client 60s",
    "  timeout server 60s",
    "  timeout http-keep-alive 10s",
    // A readiness check answered late on a busy machine is not an instance down: a killed one refuses the connection
    // and a draining one answers 503 at once, so either is out within a second whatever this is.
    "  timeout check 5s",
    "  retries 3",
    "  retry-on conn-failure empty-response response-timeout 503",
    "  option redispatch 1",
    // The console believes X-Forwarded-For only from this proxy (TRUSTED_PROXIES=127.0.0.1).
    "  option forwardfor",
    "frontend console",
    `  bind ${options.host}:${options.port}`,
    "  http-request disable-l7-retry unless METH_GET",
    "  default_backend consoles",
    "backend consoles",
    "  balance leastconn",
    "  option httpchk GET /api/health",
    "  http-check expect status 200",
    "  default-server inter 1s fall 1 rise 1",
    ...options.instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`),
    "",
  ].join("\n");
}

function consoleInstance(name: string, port: number, options: ClusterOptions): ClusterInstance {
  const instance: ClusterInstance = {
    name,
    port,
    service: undefined as unknown as Service,
    async start() {
      instance.service = startService(
        name,
        process.execPath,
        ["--import", "tsx", "scripts/console-server.ts"],
        { ...options.env, HOST: "127.0.0.1", PORT: String(port) },
        options.logFile,
      );
      await waitUntilReady(`http://127.0.0.1:${port}/api/health`, instance.service, options.readyTimeoutMs);
    },
    async stop() {
      const { child } = instance.service;
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      return exited;
    },
    async kill() {
      const { child } = instance.service;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
  return instance;
}

export interface Cluster {
  url: string;
  instances: ClusterInstance[];
  haproxy: Service;
  configDir: string;
  /** How many requests HAProxy has open on the instance named `name` now (live streams included). */
  inFlight(name: string): Promise<number>;
  /**
   * Resolves once HAProxy sends requests to the instance named `name` again (its check passed: status UP). A deploy
   * stops the next instance only then, or for a moment none would be in service.
   */
  inService(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** One server of the consoles backend as HAProxy's `show stat` (over its stats socket) gives it, by column name. */
function serverStats(socket: string, name: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let text = "";
    const connection = createConnection(socket, () => connection.end("show stat\n"));
    connection.on("data", (chunk) => (text += chunk.toString()));
    connection.on("error", reject);
    connection.on("end", () => {
      const [header, ...rows] = text.replace(/^# /, "").split("\n");
      const columns = header!.split(",");
      const row = rows.map((line) => line.split(",")).find((cells) => cells[0] === "consoles" && cells[1] === name);
      if (!row) return reject(new Error(`HAProxy's stats name no server ${name}`));
      resolve(Object.fromEntries(columns.map((column, index) => [column, row[index] ?? ""])));
    });
  });
}

/**
 * The environment a test or bench cluster's instances share, as one deployment's have: `shared` (the process's own
 * plus the data root and ports), the database, one set of new secrets (a session of one instance is valid on the
 * other), production mode, and HAProxy at `publicUrl` as the public URL and the one trusted proxy.
 */
export function clusterInstanceEnv(shared: NodeJS.ProcessEnv, databaseUrl: string, publicUrl: string): NodeJS.ProcessEnv {
  return {
    ...shared,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: randomBytes(32).toString("base64"),
    CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_TRUST_HOST: "true",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    CONSOLE_PUBLIC_URL: publicUrl,
    TRUSTED_PROXIES: "127.0.0.1",
  };
}

/**
 * Starts `instances` console processes one after another (the first migrates the shared database), then HAProxy in
 * front of them with the configuration written to a new temporary directory.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const haproxyBinary = ensureHaproxy();
  const instances = Array.from({ length: options.instances }, (_, index) =>
    consoleInstance(`console-${index + 1}`, options.port + index + 1, options),
  );
  const started: ClusterInstance[] = [];
  let haproxy: Service | undefined;
  const stop = async () => {
    haproxy?.stop();
    await Promise.all(started.map((instance) => instance.stop()));
  };
  try {
    for (const instance of instances) {
      // Listed before it is ready: one that never answers is stopped with the others.
      started.push(instance);
      await instance.start();
    }
    const configDir = mkdtempSync(path.join(tmpdir(), "console-cluster-"));
    const configFile = path.join(configDir, "haproxy.cfg");
    const statsSocket = path.join(configDir, "haproxy.sock");
    writeFileSync(configFile, haproxyConfig({ host: options.host, port: options.port, instances, statsSocket }));
    const check = spawnSync(haproxyBinary, ["-c", "-q", "-f", configFile], { encoding: "utf8" });
    if (check.status !== 0) throw new Error(`HAProxy refused ${configFile}: ${check.stderr}`);
    // -db: stays in the foreground, so it stops with this process.
    haproxy = startService("haproxy", haproxyBinary, ["-db", "-f", configFile], process.env, options.logFile);
    const url = `http://${options.host === "0.0.0.0" ? "127.0.0.1" : options.host}:${options.port}`;
    await waitUntilReady(`${url}/api/health`, haproxy, options.readyTimeoutMs ?? 30_000);
    const inFlight = async (name: string) => Number((await serverStats(statsSocket, name)).scur);
    const inService = async (name: string) => {
      const deadline = Date.now() + 60_000;
      while ((await serverStats(statsSocket, name)).status !== "UP") {
        if (Date.now() > deadline) throw new Error(`HAProxy did not take ${name} back within 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    return { url, instances, haproxy, configDir, inFlight, inService, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
