import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { testDatabaseTargets } from "@/tests/support/databases";
import { eventually, startReceiver, type Receiver } from "@/tests/support/webhook-receiver";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no TCP port");
  return address.port;
}

/**
 * `npm run sandbox` as one child process (node with tsx's loader, not the tsx CLI, whose own child would survive a
 * SIGKILL of the CLI), with its output kept for the failure message.
 */
function startSandboxProcess(env: Record<string, string>) {
  const output: string[] = [];
  const child = spawn(process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, output, exited };
}

async function waitUntilServing(url: string, sandbox: { child: ChildProcess; output: string[] }) {
  await eventually(async () => {
    if (sandbox.child.exitCode !== null) throw new Error(`sandbox exited:\n${sandbox.output.join("")}`);
    return fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
  }, 120_000);
}

describe.each(testDatabaseTargets)("webhook deliveries across a killed sandbox on $name", (target) => {
  let receiver: Receiver;
  let env: Record<string, string>;
  let url: string;
  let cleanup: () => Promise<void>;
  let running: ReturnType<typeof startSandboxProcess> | undefined;

  beforeAll(async () => {
    receiver = await startReceiver();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      SANDBOX_PORT: String(port),
      SANDBOX_SEED: "empty",
      SANDBOX_LIFECYCLE: "off",
      BANK_API_KEY_ID: demoKey.id,
      BANK_API_KEY_SECRET: demoKey.secret,
      LOG_LEVEL: "warn",
      SANDBOX_WEBHOOK_RETRY_BASE_MS: "100",
      SANDBOX_WEBHOOK_RETRY_CAP_MS: "300",
      SANDBOX_WEBHOOK_TIMEOUT_MS: "1000",
      SANDBOX_WEBHOOK_POLL_MS: "20",
      SANDBOX_WEBHOOK_ERROR_THRESHOLD: "100000",
      // The test's receiver is on this machine.
      SANDBOX_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8,::1/128",
    };
    if (target.name === "pglite") {
      // The child keeps its embedded database on disk, as `npm run sandbox` does by default.
      const dataRoot = mkdtempSync(path.join(tmpdir(), "sandbox-restart-"));
      env = { ...env, DATA_ROOT: dataRoot, SANDBOX_DATA: "disk" };
      cleanup = async () => rmSync(dataRoot, { recursive: true, force: true });
    } else {
      const database = await target.create();
      env = { ...env, SANDBOX_DATABASE_URL: database.url };
      cleanup = database.drop;
    }
  }, 120_000);
  afterAll(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill("SIGTERM");
      await running.exited;
    }
    await receiver?.close();
    await cleanup?.();
  });

  it("delivers every event at least once after a SIGKILL during pending deliveries", async () => {
    receiver.respondWith(() => 500);
    running = startSandboxProcess(env);
    await waitUntilServing(url, running);
    const request = sandboxClient(url, demoKey.id, demoKey.secret);

    const watcher = await request("/webhook", { method: "POST", json: { url: receiver.url("/restart"), event: "webhook.create" } });
    expect(watcher.status).toBe(201);
    const expected = [(watcher.body as { id: string }).id];
    for (let n = 0; n < 5; n += 1) {
      const created = await request("/webhook", { method: "POST", json: { url: receiver.url(`/other-${n}`), event: "ach.update" } });
      expected.push((created.body as { id: string }).id);
    }
    // Every event has been tried (and refused) at least once: its delivery is pending a retry.
    await eventually(() => expected.every((id) => receiver.at("/restart").some((n) => n.body.id === id)));

    running.child.kill("SIGKILL");
    await running.exited;
    const refusedBeforeKill = receiver.at("/restart").length;
    receiver.respondWith(() => 200);

    running = startSandboxProcess(env);
    await waitUntilServing(url, running);
    const acknowledged = await eventually(() => {
      const ids = new Set(
        receiver
          .at("/restart")
          .slice(refusedBeforeKill)
          .map((n) => n.body.id),
      );
      return expected.every((id) => ids.has(id)) && ids;
    }, 120_000);
    expect([...acknowledged].sort()).toEqual([...expected].sort());
  }, 180_000);
});
