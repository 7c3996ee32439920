import type { Hono } from "hono";
import type { SandboxContext } from "../context";
import type { AppEnv } from "../routes/app-env";
import { mountReset } from "./reset";
import { mountSnapshot } from "./snapshot";
import { mountClock } from "./clock";
import { mountFaults } from "./faults";
import { mountCreates } from "./create";
import { mountTransitions } from "./transition";

/**
 * The sandbox-only control API (`/sandbox/...`): what a test needs to put the bank into a known state (reset,
 * snapshots, objects the API cannot create, transitions now, a clock, failures on demand). Behind the same
 * credentials as every API route; never part of the production contract (docs/sandbox-control.md). With
 * `SANDBOX_CONTROL=off` none of it is mounted, so every `/sandbox/...` path is a 404, as at a production bank.
 *
 * Each feature mounts its own routes from its own module, one line each below.
 */
export function mountSandboxControl(app: Hono<AppEnv>, ctx: SandboxContext): void {
  if (ctx.settings.control === "off") return;
  mountReset(app, ctx);
  mountSnapshot(app, ctx);
  mountFaults(app, ctx);
  mountClock(app, ctx);
  mountCreates(app, ctx);
  mountTransitions(app, ctx);
}
