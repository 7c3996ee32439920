import { afterAll, beforeAll } from "vitest";
import { createBankClient, type BankClient } from "@/lib/bank/client";
import { createLogger } from "@/lib/log";
import { defaultSandboxSettings } from "@/sandbox/context";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";

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

/** Reads until `done` holds or `timeoutMs` passes; returns the last value read, for the test's own assertion. */
export async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
