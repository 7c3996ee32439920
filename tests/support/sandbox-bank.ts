import { afterAll, beforeAll } from "vitest";
import { createBankClient, type BankClient } from "@/lib/bank/client";
import { createLogger } from "@/lib/log";
import { defaultSandboxSettings } from "@/sandbox/context";
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from "@/sandbox/server";
import type { TestDatabaseTarget } from "./databases";
import { demoKey, sandboxClient } from "./sandbox-client";

/**
 * The sandbox bank (demo seed) started for real once for a test file, its webhooks polled and retried quickly, and
 * a bank client on it with `key`. Read `sandbox` and `bank` inside tests (they exist once beforeAll has run).
 */
export function sandboxBankForFile(key: { id: string; secret: string }): { readonly sandbox: RunningSandbox; readonly bank: BankClient } {
  let sandbox: RunningSandbox | undefined;
  let bank: BankClient | undefined;
  beforeAll(async () => {
    const webhooks = { ...defaultSandboxSettings.webhooks, pollIntervalMs: 20, retryBaseMs: 50 };
    sandbox = await startSandbox({ seed: "demo", demoKey: key, log: createLogger({ level: "silent" }), settings: { webhooks } });
    bank = createBankClient({ baseUrl: sandbox.url, auth: { type: "basic", keyId: key.id, secret: key.secret } }, { retries: 0 });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
  });
  return {
    get sandbox() {
      return sandbox!;
    },
    get bank() {
      return bank!;
    },
  };
}

/**
 * A sandbox bank on a database of its own on `target` (call it inside `describe.each(testDatabaseTargets)`), started
 * once for the block with `seed` and `settings`, with the demo key valid and `request`, the routes client, signed as
 * it; closed and its database dropped after. `request` may be kept from the start; read `sandbox` and `databaseUrl`
 * inside hooks and tests (they exist once beforeAll has run). A file's own beforeAll (fixtures, a receiver) runs after.
 */
export function sandboxOnDatabase(
  target: TestDatabaseTarget,
  options: { seed: "demo" | "empty"; settings?: StartSandboxOptions["settings"] },
): { readonly sandbox: RunningSandbox; readonly databaseUrl: string; request: SandboxRequest } {
  let sandbox: RunningSandbox | undefined;
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  let client: SandboxRequest | undefined;
  beforeAll(async () => {
    const database = await target.create();
    databaseUrl = database.url;
    drop = database.drop;
    sandbox = await startSandbox({ databaseUrl, seed: options.seed, demoKey, settings: options.settings });
    client = sandboxClient(sandbox.url, demoKey.id, demoKey.secret);
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    await drop?.();
  });
  return {
    get sandbox() {
      return sandbox!;
    },
    get databaseUrl() {
      return databaseUrl!;
    },
    request: (path, init) => client!(path, init),
  };
}

/** The routes client of tests/support/sandbox-client.ts: a request to the sandbox bank, signed. */
type SandboxRequest = ReturnType<typeof sandboxClient>;

/** Reads until `done` holds or `timeoutMs` passes; returns the last value read, for the test's own assertion. */
export async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
