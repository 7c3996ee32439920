import type { Logger } from "pino";
import type { SandboxDatabase, SandboxDb } from "./db";

/**
 * The sandbox bank's configuration at run time. Flat so that each part can add its own fields with a small edit;
 * startSandbox fills every field from its options (tests) or the environment (sandbox/main.ts).
 */
export interface SandboxSettings {
  /** Whether the lifecycle engine advances non-terminal objects over time. */
  lifecycle: "on" | "off";
  /** Lifecycle speed multiplier: 1 is real time-ish, larger is faster (tests and demos). */
  lifecycleSpeed: number;
  /** Base interval of the webhook retry backoff, in milliseconds (tests use a few ms). */
  webhookRetryBaseMs: number;
  /** Failed deliveries within webhookErrorWindowMs that put a webhook in `error`. */
  webhookErrorThreshold: number;
  webhookErrorWindowMs: number;
  /** How far a DPoP proof's iat may be from now, in seconds. */
  dpopIatWindowSeconds: number;
}

export interface SandboxContext {
  database: SandboxDatabase;
  /** The database's drizzle handle (database.db), for code that takes a SandboxDb. */
  db: SandboxDb;
  /** Public base URL of the sandbox, no trailing slash (notification urls and page_next start with it). */
  baseUrl: string;
  settings: SandboxSettings;
  /** The current time; one clock for every part, so tests can reason about it. */
  now(): Date;
  log: Logger;
}

export const defaultSandboxSettings: SandboxSettings = {
  lifecycle: "on",
  lifecycleSpeed: 1,
  webhookRetryBaseMs: 1000,
  webhookErrorThreshold: 10,
  webhookErrorWindowMs: 5 * 60 * 1000,
  dpopIatWindowSeconds: 60,
};
