import { Hono } from "hono";
import { operations } from "@/lib/contract";
import type { ApiKeyStore } from "./auth/api-keys";
import { requireApiKey } from "./auth/middleware";
import type { SandboxContext } from "./context";
import { mountSandboxControl } from "./control";
import { httpFaults } from "./control/http-faults";
import { controlOperations } from "./control/openapi-paths";
import { ApiError, errorResponse } from "./http/errors";
import { methodsByPath } from "./http/known-paths";
import { serveOpenApiDocument } from "./openapi";
import type { AppEnv } from "./routes/app-env";
import { mountCardToken } from "./routes/card-token";
import { mountNetworkTransferPatch } from "./routes/network-transfer";
import { mountResourceRoutes } from "./routes/resources";
import { mountSimulation } from "./routes/simulation";

/** The routes that need no credentials: a liveness probe and the API's description (neither says anything about the bank's data). */
const publicRoutes = [
  { method: "GET", path: "/health" },
  { method: "GET", path: "/openapi.json" },
];

export interface AppDependencies {
  keys: ApiKeyStore;
  signingKey: Uint8Array;
  /** The webhook routes (sandbox/webhooks/routes.ts), mounted at /webhook. */
  webhookRoutes?: Hono;
}

/**
 * The sandbox bank's HTTP application: the liveness probe and the OpenAPI document, then everything else behind the
 * API key check and the faults a test may have set (POST /sandbox/faults).
 */
export function createApp(ctx: SandboxContext, deps: AppDependencies): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/health", (c) => c.json({ status: "ok" }));
  app.get("/openapi.json", serveOpenApiDocument(ctx.baseUrl, { control: ctx.settings.control === "on" }));

  app.use("*", requireApiKey(deps.keys, deps.signingKey));
  app.use("*", httpFaults(ctx));
  // A change's events are committed once its handler returns: its notifications leave now, not at the worker's next poll.
  app.use("*", async (c, next) => {
    await next();
    if (c.req.method !== "GET" && c.res.status < 400) ctx.nudgeDeliveries?.();
  });
  mountResourceRoutes(app, ctx);
  mountNetworkTransferPatch(app, ctx);
  mountCardToken(app, ctx, deps.signingKey);
  mountSimulation(app, ctx);
  mountSandboxControl(app, ctx);
  if (deps.webhookRoutes) app.route("/webhook", deps.webhookRoutes);

  // A wrong method on a known path, the control API's included while it is mounted, is a 405 naming the right ones.
  const allowedMethods = methodsByPath([...operations, ...publicRoutes, ...(ctx.settings.control === "on" ? controlOperations : [])]);
  app.all("*", (c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed) {
      const allow = allowed.join(", ");
      throw new ApiError(405, `Method ${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`, { allow });
    }
    throw new ApiError(404, `No such path: ${c.req.path}`);
  });
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    ctx.log.error({ err: error, method: c.req.method, path: c.req.path }, "request failed");
    return c.json({ error: "Internal error in the sandbox bank; see its log" }, 500);
  });
  return app;
}
