import { eq } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { z } from "zod";
import { listedResources, webhook } from "@/lib/contract";
import type { SandboxContext } from "../context";
import { webhooks, type WebhookStatus } from "../db/webhook-schema";
import { badRequest, notFound } from "../http/errors";
import { pathId, readJsonBody } from "../http/request";
import { applyChanges } from "../lifecycle/engine";
import type { AppEnv } from "../routes/app-env";
import { resourceSources } from "../routes/resource-sources";
import { jsonHeaders, resourceJson } from "../routes/resources";
import { wholeSeconds } from "../seed/shared";
import { errorReason, stopWebhook } from "../webhooks/delivery-store";
import { webhookJson } from "../webhooks/routes";
import { controlOperations, type ControlOperation } from "./openapi-paths";
import { ach, fednow, message, networkTransfer, road, validTargets, type Movable, type Target } from "./transition-roads";

/**
 * `POST /sandbox/{resource}/{id}/transition`: moves an object to a state now. A transfer or payment walks the
 * lifecycle's own steps (sandbox/lifecycle/transitions.ts) towards the outcome asked for, each step written by the
 * engine's own writer (applyChanges: guarded, updated_at = the sandbox clock, one `<resource>.update` per step), so a
 * transition fires exactly the events the lifecycle would. A target the lifecycle cannot reach from the current state
 * is a 409 listing the ones it can. Webhooks stop as the delivery worker's error threshold stops them (stopWebhook).
 */

const conflict = (c: Context, error: string, lists: Record<string, string[]>) => c.json({ error, ...lists }, 409);

const describeValid = (lists: Record<string, string[]>) =>
  Object.entries(lists)
    .map(([list, labels]) => `${list}: ${labels.length > 0 ? labels.join(", ") : "none"}`)
    .join("; ");

/** The resources whose objects a transition moves, by their API path. */
export const movableResources = ["ach", "network_transfer", "fednow", "webhook"] as const;

function mountMovable<Row extends { id: string }, T extends Target<unknown>>(app: Hono<AppEnv>, ctx: SandboxContext, machine: Movable<Row, T>) {
  const source = resourceSources[machine.resource];
  app.post(`/sandbox/${machine.resource}/:id/transition`, async (c) => {
    const id = pathId(c);
    const target = machine.target((await readJsonBody(c, machine.body)) as never);
    const row = await machine.read(ctx, id);
    if (!row) throw notFound(`No ${machine.resource} with id ${id}`);
    const now = wholeSeconds(ctx.now());
    const steps = road(machine, row, target, now);
    if (!steps) {
      const valid = validTargets(machine, row, now);
      const error = `${machine.resource} ${id} is ${machine.describe(row)}: it cannot move to ${target.label}; ${describeValid(valid)}`;
      return conflict(c, error, valid);
    }
    const changes = steps.map((step) => ({ id, guard: machine.guard(step.from), set: step.set }));
    // One transaction (applyChanges writes up to 20 changes in one), each step guarded by the state before it.
    if ((await applyChanges(ctx, machine.resource, machine.table, changes, now)) < changes.length) {
      const moved = (await machine.read(ctx, id))!;
      const error = `${machine.resource} ${id} moved meanwhile (it is now ${machine.describe(moved)}): read it and ask again`;
      return conflict(c, error, validTargets(machine, moved, now));
    }
    return c.body(await resourceJson(ctx, source, id), 200, jsonHeaders);
  });
  app.get(`/sandbox/${machine.resource}/:id/transitions`, async (c) => {
    const id = pathId(c);
    const row = await machine.read(ctx, id);
    if (!row) throw notFound(`No ${machine.resource} with id ${id}`);
    return c.json({ status: machine.describe(row), ...validTargets(machine, row, wholeSeconds(ctx.now())) });
  });
}

/** Where a webhook may be moved from each status; `PATCH /webhook/{id}` with status enabled resets it. */
const webhookMoves: Record<WebhookStatus, Array<"error" | "disabled">> = { enabled: ["error", "disabled"], error: ["disabled"], disabled: [] };
export const webhookBody = z.strictObject({
  to: z.enum(["error", "disabled"], { error: "to must be one of error, disabled (PATCH /webhook/{id} with status enabled resets a webhook)" }),
  error: message.optional(),
});

function mountWebhookTransition(app: Hono<AppEnv>, ctx: SandboxContext) {
  const readStatus = async (id: string) => {
    const [hook] = await ctx.db.select({ status: webhooks.status }).from(webhooks).where(eq(webhooks.id, id));
    if (!hook) throw notFound(`No webhook with id ${id}`);
    return hook.status;
  };
  const refuse = (c: Context, id: string, status: WebhookStatus, to: string) => {
    const valid = webhookMoves[status];
    return conflict(c, `webhook ${id} is ${status}: it cannot move to ${to}; valid: ${valid.join(", ") || "none"}`, { valid });
  };
  app.post("/sandbox/webhook/:id/transition", async (c) => {
    const id = pathId(c);
    const body = await readJsonBody(c, webhookBody);
    if (body.error !== undefined && body.to !== "error") throw badRequest("error applies only to error (why the webhook entered it)");
    const status = await readStatus(id);
    if (!webhookMoves[status].includes(body.to)) return refuse(c, id, status, body.to);
    // Said as the error threshold says it, the last bad response being this request.
    const reason =
      body.error ?? errorReason(ctx.settings.webhooks, ctx.settings.webhooks.errorThreshold, "HTTP 500 (POST /sandbox/webhook/{id}/transition)");
    const to = { status: body.to, error: body.to === "error" ? reason : null };
    const stopped = await ctx.db.transaction((tx) => stopWebhook(tx, id, status, to, wholeSeconds(ctx.now())));
    // Changed meanwhile (the worker's threshold, a PATCH): answered from the state it is in now.
    if (!stopped) return refuse(c, id, await readStatus(id), body.to);
    return c.body(await webhookJson(ctx, id), 200, jsonHeaders);
  });
  app.get("/sandbox/webhook/:id/transitions", async (c) => {
    const status = await readStatus(pathId(c));
    return c.json({ status, valid: webhookMoves[status] });
  });
}

/** The answer of `GET /sandbox/{resource}/{id}/transitions`. */
const transitionsAnswer = (external: boolean) =>
  z.object({ status: z.string(), valid: z.array(z.string()), ...(external ? { valid_external_status: z.array(z.string()) } : {}) });

/**
 * Mounts `POST /sandbox/{ach,network_transfer,fednow,webhook}/{id}/transition`, and `GET .../{id}/transitions`: where
 * the object stands and the targets valid from there (the lists a 409 gives), so a caller offers only those.
 */
export function mountTransitions(app: Hono<AppEnv>, ctx: SandboxContext): void {
  mountMovable(app, ctx, ach);
  mountMovable(app, ctx, networkTransfer);
  mountMovable(app, ctx, fednow);
  mountWebhookTransition(app, ctx);
}

/** The OpenAPI document's entries for these transitions (sandbox/openapi.ts lists them under the sandbox tag). */
controlOperations.push(
  ...[
    { resource: "ach", body: ach.body, schema: listedResources.ach.schema },
    { resource: "network_transfer", body: networkTransfer.body, schema: listedResources.network_transfer.schema },
    { resource: "fednow", body: fednow.body, schema: listedResources.fednow.schema },
    { resource: "webhook", body: webhookBody, schema: webhook },
  ].map(({ resource, body, schema }): ControlOperation => ({
    method: "post",
    path: `/sandbox/${resource}/{id}/transition`,
    operationId: `sandbox_transition_${resource}`,
    summary: `Move a ${resource.replaceAll("_", " ")} to a state now, firing the events the lifecycle would`,
    body,
    response: { status: 200, description: "The object in its new state, as its GET answers it", schema },
    errors: {
      404: `No ${resource} with that id`,
      409: "Not reachable from the current state: besides `error`, `valid` lists the valid targets (instant payments also `valid_external_status`)",
    },
  })),
  ...movableResources.map((resource): ControlOperation => ({
    method: "get",
    path: `/sandbox/${resource}/{id}/transitions`,
    operationId: `sandbox_transitions_${resource}`,
    summary: `Where a ${resource.replaceAll("_", " ")} stands and the transitions valid from there`,
    response: {
      status: 200,
      description:
        "`status` as a 409 words it; `valid`: the targets of `to` valid now" +
        (resource === "fednow" ? "; `valid_external_status`: those of `external_status`" : ""),
      schema: transitionsAnswer(resource === "fednow"),
    },
    errors: { 404: `No ${resource} with that id` },
  })),
);
