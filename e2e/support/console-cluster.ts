import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createScratchDatabase } from "@/lib/db/scratch-database";
import { eventually } from "@/tests/support/webhook-receiver";
import { clusterInstanceEnv, freePortRun, startCluster, type Cluster } from "../../scripts/lib/cluster";
import { startService, waitUntilReady } from "../../scripts/lib/services";

/**
 * Starting processes on a machine shared with other work: each wait is a ceiling, not a target. A console instance
 * took over two minutes to answer its readiness route at a load average of 30-40.
 */
const readyCeilingMs = 240_000;

export interface ConsoleCluster {
  /** HAProxy's URL: what a browser opens. */
  url: string;
  cluster: Cluster;
  /** A call to the cluster's own sandbox bank with the demo key, as another system changing an object would make it. */
  bank<T>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/**
 * The console as `npm run cluster` runs it, for one spec: a sandbox bank of its own (its lifecycle off, so only the
 * test moves objects), two console instances on one new PostgreSQL database (dropped by `stop`) and HAProxy in front
 * of them, started by the same startCluster. The instances share their secrets and the index's inbox, and the bank
 * posts its notifications to HAProxy, which passes each to either instance. Resolves once the consoles have
 * subscribed at the bank and HAProxy has both instances in service.
 */
export async function startConsoleCluster(postgresUrl: string): Promise<ConsoleCluster> {
  const database = await createScratchDatabase(postgresUrl, `cluster_e2e_${process.pid}_${randomBytes(3).toString("hex")}`);
  const dataRoot = mkdtempSync(path.join(tmpdir(), "console-cluster-e2e-"));
  // HAProxy, console-1, console-2, then the sandbox bank.
  const port = await freePortRun(4);
  const sandboxPort = port + 3;
  const url = `http://127.0.0.1:${port}`;
  const shared = { ...process.env, HOST: "127.0.0.1", LOG_LEVEL: "warn", DATA_ROOT: dataRoot, SANDBOX_PORT: String(sandboxPort) };
  const sandbox = startService("cluster-sandbox", process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    ...shared,
    // The sandbox accepts a loopback webhook only on the console's port: here HAProxy's.
    PORT: String(port),
    SANDBOX_DATABASE_URL: database.url,
    SANDBOX_LIFECYCLE: "off",
    SANDBOX_WEBHOOK_POLL_MS: "50",
    // A notification refused by a stopping instance is sent again within a fraction of a second.
    SANDBOX_WEBHOOK_RETRY_BASE_MS: "100",
    SANDBOX_WEBHOOK_RETRY_CAP_MS: "400",
  });
  let cluster: Cluster | undefined;
  const stop = async () => {
    await cluster?.stop();
    sandbox.stop();
    if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) await new Promise((resolve) => sandbox.child.once("exit", resolve));
    await database.drop();
    rmSync(dataRoot, { recursive: true, force: true });
  };
  const authorization = `Basic ${Buffer.from("sandbox-demo-key:sandbox-demo-secret-change-me").toString("base64")}`;
  const bank = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${sandboxPort}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`sandbox bank ${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  try {
    await waitUntilReady(`http://127.0.0.1:${sandboxPort}/health`, sandbox, readyCeilingMs);
    cluster = await startCluster({
      host: "127.0.0.1",
      port,
      instances: 2,
      readyTimeoutMs: readyCeilingMs,
      env: clusterInstanceEnv(shared, database.url, url),
    });
    for (const instance of cluster.instances) await cluster.inService(instance.name);
    // The index has subscribed at its bank (every event type, pointed at HAProxy): a change from now on is notified.
    await eventually(async () => {
      const hooks = (await bank<{ data: Array<{ url: string }> }>("GET", "/webhook?page_size=100")).data;
      return hooks.filter((hook) => hook.url.startsWith(`${url}/api/bank-events/`)).length >= 20;
    }, readyCeilingMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, cluster, bank, stop };
}
