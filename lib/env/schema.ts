import { z } from "zod";
import { port, postgresUrl } from "./read-env";

/**
 * Every setting of the project, in one place. Each process validates the part it needs once at start
 * (`lib/env/console.ts`, `sandbox/env.ts`); `.env.example` documents each variable with its default.
 */
export const sharedEnvSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port(3000),
  SANDBOX_PORT: port(4010),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Root of the embedded databases' data directories; each process uses a sub-directory named after its port. */
  DATA_ROOT: z.string().min(1).default(".data"),
});

export const consoleEnvSchema = sharedEnvSchema.extend({
  /** The console's own database (staff users, audit, stored credentials). Unset: embedded PGlite under DATA_ROOT. */
  DATABASE_URL: postgresUrl.optional(),
});

export const sandboxEnvSchema = sharedEnvSchema.extend({
  /** The sandbox bank's database. Unset: embedded PGlite under DATA_ROOT (or in memory with SANDBOX_DATA=memory). */
  SANDBOX_DATABASE_URL: postgresUrl.optional(),
  SANDBOX_DATA: z.enum(["disk", "memory"], { message: "expected disk or memory" }).default("disk"),
});

export type ConsoleEnv = z.infer<typeof consoleEnvSchema>;
export type SandboxEnv = z.infer<typeof sandboxEnvSchema>;
