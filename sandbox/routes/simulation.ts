import type { Hono } from "hono";
import { provisioningSimulation, simulationBody } from "@/lib/contract";
import type { SandboxContext } from "../context";
import { badRequest, describeZodError } from "../http/errors";
import { readJsonBody } from "../http/request";
import { simulateProvisioning } from "../simulation/provisioning";
import type { AppEnv } from "./app-env";

/** POST /simulation: digital_wallet_token.provisioning is the only type; success is 202 with no body. */
export function mountSimulation(app: Hono<AppEnv>, ctx: SandboxContext): void {
  app.post("/simulation", async (c) => {
    const body = await readJsonBody(c, simulationBody);
    if (body.type !== "digital_wallet_token.provisioning") throw badRequest(`Simulation not implemented for ${body.type}`);
    const parsed = provisioningSimulation.safeParse(body.simulation);
    if (!parsed.success) throw badRequest(describeZodError(parsed.error, "simulation"));
    await simulateProvisioning(ctx, parsed.data);
    return c.body(null, 202);
  });
}
