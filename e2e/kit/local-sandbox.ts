import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";

/**
 * A sandbox bank of its own for one Playwright worker: `sandbox/main.ts` of a checkout of the bank's repository, on a
 * free port of 127.0.0.1, its data in memory, so resetting it never touches a sandbox anyone else uses. Stopped (and
 * its data gone) when the worker ends.
 */

export interface LocalSandboxOptions {
  /** The checkout of the bank's repository (it holds sandbox/main.ts and node_modules with tsx). */
  directory: string;
  /** The API key the bank accepts: its demo key, set to these. */
  credentials: { username: string; password: string };
  /** SANDBOX_LIFECYCLE: "on" moves transfers over time and when the clock advances; "off" leaves them where put. */
  lifecycle: "on" | "off";
  /** More settings (docs: .env.example), applied last. */
  env: Record<string, string>;
}

export interface LocalSandbox {
  url: string;
  stop(): Promise<void>;
}

/** Settings the kit never passes on from the environment, so a developer's own bank settings cannot leak in. */
const notInherited = /^(SANDBOX_|BANK_|DATABASE_URL$|DATA_ROOT$|PORT$|HOST$|LOG_LEVEL$)/;
const startTimeoutMs = 60_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startLocalSandbox(options: LocalSandboxOptions): Promise<LocalSandbox> {
  const entry = path.join(options.directory, "sandbox", "main.ts");
  if (!existsSync(entry)) {
    throw new Error(`no sandbox bank at ${entry}: set sandboxDirectory (or SANDBOX_DIR) to a checkout of the bank, or SANDBOX_URL to a running one`);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (notInherited.test(name)) delete env[name];
  Object.assign(env, {
    SANDBOX_HOST: "127.0.0.1",
    SANDBOX_PORT: String(port),
    SANDBOX_DATA: "memory",
    SANDBOX_LIFECYCLE: options.lifecycle,
    BANK_API_KEY_ID: options.credentials.username,
    BANK_API_KEY_SECRET: options.credentials.password,
    // The kit's webhook receiver listens on this machine, which the bank refuses unless allowed; no console runs
    // beside this bank, so there is no console address to refuse either.
    SANDBOX_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8,::1/128",
    SANDBOX_WEBHOOK_REFUSE_CONSOLE: "off",
    // Notifications leave within 50 ms of a change instead of 200 ms: a test waits for them.
    SANDBOX_WEBHOOK_POLL_MS: "50",
    LOG_LEVEL: "warn",
    ...options.env,
  });
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], { cwd: options.directory, env, stdio: ["ignore", "pipe", "pipe"] });
  // The last lines the bank printed, to say why it did not start.
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killed = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(killed);
  };

  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the sandbox bank exited with code ${child.exitCode} before it answered:\n${output}`);
    try {
      if ((await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) })).ok) return { url, stop };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the sandbox bank did not answer ${url}/health within ${startTimeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
