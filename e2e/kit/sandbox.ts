import { readFile } from "node:fs/promises";
import path from "node:path";
import { test as base, expect } from "@playwright/test";
import { startLocalSandbox } from "./local-sandbox";
import { SandboxClient, type Seed } from "./sandbox-client";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

/**
 * Playwright fixtures for testing against the sandbox bank (docs/testing-with-the-sandbox.md): `sandbox`, the bank put
 * into a known state before each test and its faults cleared after it, and `receiver`, a webhook receiver. Import
 * `test` and `expect` from here instead of from @playwright/test.
 */

export { expect };
export { SandboxClient, SandboxError } from "./sandbox-client";
export type {
  BankList,
  BankObject,
  CreatableResource,
  Fault,
  FaultSpec,
  MovableResource,
  SandboxSnapshot,
  Seed,
  TransitionBody,
} from "./sandbox-client";
export type { Notification, WebhookReceiver } from "./webhook-receiver";

/**
 * What the bank holds when a test starts: a reset to a seed ("demo", "empty", or the demo set with that many ACH
 * transfers), a snapshot file restored (`GET /sandbox/snapshot`'s download; a path relative to the working directory),
 * or whatever the previous test left ("keep").
 */
export type SandboxState = Seed | { snapshot: string } | "keep";

export interface SandboxWorkerOptions {
  /** A running sandbox bank to use (default: env SANDBOX_URL); unset: the kit starts one per worker. */
  sandboxURL: string | undefined;
  /** The API key (HTTP Basic); default env SANDBOX_KEY_ID / SANDBOX_KEY_SECRET, else the bank's demo key. */
  sandboxCredentials: { username: string; password: string };
  /** For a bank the kit starts: the checkout of the bank's repository (default env SANDBOX_DIR, else the working directory). */
  sandboxDirectory: string;
  /** For a bank the kit starts: SANDBOX_LIFECYCLE ("on": transfers move over time and with the clock). */
  sandboxLifecycle: "on" | "off";
  /** For a bank the kit starts: more of its settings (.env.example), e.g. { SANDBOX_WEBHOOK_RETRY_BASE_MS: "100" }. */
  sandboxEnv: Record<string, string>;
}

export interface SandboxTestOptions {
  /** Applied before each test that uses `sandbox`; default "demo". */
  sandboxState: SandboxState;
}

export interface SandboxFixtures {
  /** The sandbox bank in the state `sandboxState` names; faults cleared after the test. */
  sandbox: SandboxClient;
  /** A webhook receiver on 127.0.0.1 for this test (the bank must be able to reach it: same machine). */
  receiver: WebhookReceiver;
}

interface SandboxWorkerFixtures extends SandboxWorkerOptions {
  /** The bank's client for this worker, in whatever state the last test left it. */
  sandboxBank: SandboxClient;
}

// Each fixture's second parameter is Playwright's `use`, named `provide` so React's hook rules do not take it for a hook.
export const test = base.extend<SandboxFixtures & SandboxTestOptions, SandboxWorkerFixtures>({
  sandboxURL: [process.env.SANDBOX_URL || undefined, { option: true, scope: "worker" }],
  sandboxCredentials: [
    { username: process.env.SANDBOX_KEY_ID || "sandbox-demo-key", password: process.env.SANDBOX_KEY_SECRET || "sandbox-demo-secret-change-me" },
    { option: true, scope: "worker" },
  ],
  sandboxDirectory: [process.env.SANDBOX_DIR || process.cwd(), { option: true, scope: "worker" }],
  sandboxLifecycle: ["on", { option: true, scope: "worker" }],
  sandboxEnv: [{}, { option: true, scope: "worker" }],
  sandboxState: ["demo", { option: true }],

  sandboxBank: [
    async ({ playwright, sandboxURL, sandboxCredentials, sandboxDirectory, sandboxLifecycle, sandboxEnv }, provide) => {
      const started = sandboxURL
        ? undefined
        : await startLocalSandbox({ directory: sandboxDirectory, credentials: sandboxCredentials, lifecycle: sandboxLifecycle, env: sandboxEnv });
      try {
        const url = (sandboxURL ?? started!.url).replace(/\/+$/, "");
        const api = await playwright.request.newContext({
          baseURL: url,
          // Sent with the first request (no 401 round trip), and only to this bank, never to a URL elsewhere.
          httpCredentials: { ...sandboxCredentials, origin: new URL(url).origin, send: "always" },
        });
        await provide(new SandboxClient(api, url, sandboxCredentials));
        await api.dispose();
      } finally {
        await started?.stop();
      }
    },
    // Starting a bank (migrations, the demo seed) takes some seconds on a small machine: not the first test's time.
    { scope: "worker", timeout: 120_000 },
  ],

  sandbox: async ({ sandboxBank, sandboxState }, provide) => {
    if (sandboxState !== "keep") {
      if (typeof sandboxState === "object") {
        await sandboxBank.restore(await readFile(path.resolve(sandboxState.snapshot), "utf8"));
      } else {
        await sandboxBank.reset(sandboxState);
      }
    }
    await provide(sandboxBank);
    // Faults are settings of the running bank, not data: neither a reset nor a restore removes them.
    await sandboxBank.faults.clear();
  },

  receiver: async ({}, provide) => {
    const receiver = await startWebhookReceiver();
    await provide(receiver);
    await receiver.close();
  },
});
