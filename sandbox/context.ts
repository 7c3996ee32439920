import type { Logger } from "pino";
import type { SandboxClock } from "./control/clock";
import type { SandboxDatabase, SandboxDb } from "./db";
import type { WebhookSettings } from "./webhooks/settings";

/**
 * The sandbox bank's configuration at run time. Flat so that each part can add its own fields with a small edit;
 * startSandbox fills every field from its options (tests) or the environment (sandbox/main.ts).
 */
export interface SandboxSettings {
  /** Whether the lifecycle engine advances non-terminal objects over time. */
  lifecycle: "on" | "off";
  /** Lifecycle speed multiplier: 1 is real time-ish, larger is faster (tests and demos). */
  lifecycleSpeed: number;
  /** Webhook delivery: retry schedule, error threshold and window, timeouts (sandbox/webhooks/settings.ts). */
  webhooks: WebhookSettings;
  /** How far a DPoP proof's iat may be from now, in seconds. */
  dpopIatWindowSeconds: number;
  /** Whether the sandbox-only control API (`/sandbox/...`, sandbox/control/) answers; `off` makes it a 404. */
  control: "on" | "off";
}

export interface SandboxContext {
  database: SandboxDatabase;
  /** The database's drizzle handle (database.db), for code that takes a SandboxDb. */
  db: SandboxDb;
  /** Public base URL of the sandbox, no trailing slash (notification urls and page_next start with it). */
  baseUrl: string;
  settings: SandboxSettings;
  /**
   * The current time; one clock for every part, so tests can reason about it. Started by startSandbox, it is the
   * sandbox clock (`clock.now()`: the wall clock plus the offset `POST /sandbox/clock/advance` moves); objects'
   * times, the lifecycle and webhook retries follow it. Leases, timeouts and credentials' expiry stay on the wall
   * clock, which the other side (another process, the client) shares.
   */
  now(): Date;
  /** The stored clock behind `now()` (sandbox/control/clock.ts); absent when a test moves `now()` by hand. */
  clock?: SandboxClock;
  /** Tells this process's delivery worker that new deliveries are committed (set once it runs; sandbox/server.ts). */
  nudgeDeliveries?: () => void;
  log: Logger;
}

/** Defaults for startSandbox callers that give no settings (tests): objects stay put unless a test asks otherwise. */
export const defaultSandboxSettings: SandboxSettings = {
  lifecycle: "off",
  lifecycleSpeed: 1,
  webhooks: {
    retryBaseMs: 1000,
    retryCapMs: 3_600_000,
    errorThreshold: 10,
    errorWindowMs: 300_000,
    requestTimeoutMs: 10_000,
    pollIntervalMs: 200,
    refusedConsole: null,
    // Tests deliver to receivers on this machine.
    allowedNetworks: ["127.0.0.0/8", "::1/128"],
  },
  dpopIatWindowSeconds: 60,
  control: "on",
};
