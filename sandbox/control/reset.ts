import type { Hono } from "hono";
import { z } from "zod";
import type { SandboxContext } from "@/sandbox/context";
import { readJsonBody } from "@/sandbox/http/request";
import type { AppEnv } from "@/sandbox/routes/app-env";
import { demoSizes, loadSeed, maxSeedAch, resetEpoch, type SeedLoad, type SeedName } from "@/sandbox/seed";
import { resetClock } from "./clock";
import { controlOperations } from "./openapi-paths";
import { replaceData } from "./sandbox-data";

const seedProblem = `seed must be "demo", "empty" or a whole number of ACH transfers from 0 to ${maxSeedAch}`;

export const resetBody = z
  .object({
    seed: z.union([z.literal("demo"), z.literal("empty"), z.number(seedProblem).int(seedProblem).min(0, seedProblem).max(maxSeedAch, seedProblem)], {
      error: seedProblem,
    }),
  })
  .strict();

export const resetAnswer = z.object({
  seed: resetBody.shape.seed,
  loaded: z.object(Object.fromEntries(Object.keys(demoSizes).map((resource) => [resource, z.number().int()]))),
});

/**
 * Replaces every object, webhook, delivery and event with the data set `seed`, dated from resetEpoch: the same seed
 * always gives the same ids and times. API keys stay (keptTables). Atomic: a failure leaves the old state. The
 * clock's stored offset is data too (emptied with the rest); the running clock then goes back to its start.
 */
export async function resetSandbox(ctx: SandboxContext, seed: SeedName): Promise<SeedLoad["loaded"]> {
  const { loaded } = await replaceData(ctx, (client) => loadSeed(client, seed, resetEpoch));
  await resetClock(ctx);
  return loaded;
}

/** POST /sandbox/reset `{"seed": ...}` → 200 with the objects loaded, by resource. */
export function mountReset(app: Hono<AppEnv>, ctx: SandboxContext): void {
  app.post("/sandbox/reset", async (c) => {
    const { seed } = await readJsonBody(c, resetBody);
    const loaded = await resetSandbox(ctx, seed);
    ctx.log.info({ seed, loaded }, "sandbox reset");
    return c.json({ seed, loaded }, 200);
  });
}

controlOperations.push({
  method: "post",
  path: "/sandbox/reset",
  operationId: "reset_sandbox",
  summary: "Replace all data with a seed's data set (API keys stay)",
  description:
    'Clears every object, webhook, delivery and event and loads `"demo"`, `"empty"` or the demo set with N ACH transfers. ' +
    "The same seed always gives the same ids and times (dated from 2026-01-06T15:00:00Z). Atomic.",
  body: resetBody,
  response: { status: 200, description: "The objects loaded, by resource", schema: resetAnswer },
  errors: { 415: "The body is not declared application/json" },
});
