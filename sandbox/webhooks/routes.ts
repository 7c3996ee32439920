import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { createWebhookBody, listQueries, patchWebhookBody, webhook, webhookDelivery } from "@/lib/contract";
import type { SandboxContext } from "@/sandbox/context";
import type { SandboxDb } from "@/sandbox/db";
import { deliveryAttempts, webhooks } from "@/sandbox/db/webhook-schema";
import { emitEvent, newId } from "@/sandbox/events/emit";
import { badRequest, notFound } from "@/sandbox/http/errors";
import { rowFormat, type FieldKind } from "@/sandbox/http/format";
import { listPage, objectJson, type ListSource } from "@/sandbox/http/pagination";
import { parseQuery, pathId, readJsonBody } from "@/sandbox/http/request";
import { pauseDeliveries, resumeDeliveries } from "./delivery-store";
import { resendNotification, sendTestNotification } from "./send-now";
import { checkTarget } from "./target";
import { qualifiedName } from "@/sandbox/routes/resource-sources";
import { jsonHeaders } from "@/sandbox/routes/resources";

/** Each API field of an object in the contract's order, from its column (`basic_secret` is write-only: null). */
function fieldsOf(shape: Record<string, unknown>, columns: Record<string, { kind: FieldKind; column?: string }>) {
  return Object.keys(shape).map((name) => {
    const spec = columns[name];
    if (!spec) throw new Error(`no column renders the contract field ${name}`);
    return { name, ...spec };
  });
}

const webhookSource: ListSource = {
  table: qualifiedName(webhooks),
  format: rowFormat(
    fieldsOf(webhook.shape, {
      id: { kind: "text" },
      url: { kind: "text" },
      event: { kind: "text" },
      status: { kind: "text" },
      basic_user: { kind: "text" },
      basic_secret: { kind: "null" },
      error: { kind: "text" },
      userdata: { kind: "json" },
      created_at: { kind: "timestamp" },
      updated_at: { kind: "timestamp" },
    }),
  ),
  filters: { event: "event", status: "status" },
};

const deliverySource: ListSource = {
  table: qualifiedName(deliveryAttempts),
  format: rowFormat(
    fieldsOf(webhookDelivery.shape, {
      id: { kind: "text" },
      webhook_id: { kind: "text" },
      notification_id: { kind: "text", column: "delivery_id" },
      event: { kind: "text" },
      op: { kind: "text" },
      object_id: { kind: "text" },
      attempt: { kind: "integer" },
      attempted_at: { kind: "timestamp" },
      status_code: { kind: "integer" },
      latency_ms: { kind: "integer" },
      error: { kind: "text" },
      succeeded: { kind: "boolean" },
      url: { kind: "text" },
      request_body: { kind: "text" },
      response_body: { kind: "text" },
    }),
  ),
  filters: { succeeded: "succeeded" },
  createdAtColumn: "attempted_at",
};

/** The webhook as the API shows it, read once its change is committed; 404 when there is none. */
export async function webhookJson(ctx: SandboxContext, id: string): Promise<string> {
  const json = await objectJson(ctx.database.pool, webhookSource, id);
  if (json === undefined) throw noWebhook(id);
  return json;
}

/**
 * The webhook endpoints, mounted at /webhook: create, list, get, update (status enabled resets a webhook in error
 * or disabled and resumes its pending deliveries), delete, and the read-only list of delivery attempts. Every
 * change emits a webhook event in the transaction that makes it.
 */
export function webhookRoutes(ctx: SandboxContext): Hono {
  const app = new Hono();
  const listUrl = `${ctx.baseUrl}/webhook`;
  const refuseTarget = async (url: string) => {
    const checked = await checkTarget(url, ctx.settings.webhooks);
    if ("refusal" in checked) throw badRequest(checked.refusal);
  };

  app.post("/", async (c) => {
    const body = await readJsonBody(c, createWebhookBody);
    await refuseTarget(body.url);
    const now = ctx.now();
    const id = newId("webhook");
    await ctx.db.transaction(async (tx) => {
      await tx.insert(webhooks).values({
        id,
        url: body.url,
        event: body.event,
        basicUser: body.basic_user ?? null,
        basicSecret: body.basic_secret ?? null,
        userdata: body.userdata ?? null,
        failuresCountedSince: now,
        createdAt: now,
        updatedAt: now,
      });
      await emitEvent(tx, { resource: "webhook", op: "create", id });
    });
    return c.body(await webhookJson(ctx, id), 201, jsonHeaders);
  });

  app.get("/", async (c) => {
    const { query, raw } = parseQuery(new URL(c.req.url), listQueries.webhook);
    return c.body(await listPage(ctx.database.pool, webhookSource, query, raw, listUrl), 200, jsonHeaders);
  });

  app.get("/:id", async (c) => c.body(await webhookJson(ctx, pathId(c)), 200, jsonHeaders));

  app.patch("/:id", async (c) => {
    const id = pathId(c);
    const body = await readJsonBody(c, patchWebhookBody);
    if (Object.keys(body).length === 0) {
      throw badRequest(`Nothing to update; give at least one of ${Object.keys(patchWebhookBody.shape).join(", ")}`);
    }
    if (body.url !== undefined) await refuseTarget(body.url);
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      const previous = await lockWebhook(tx, id);
      const resuming = body.status === "enabled" && previous.status !== "enabled";
      await tx
        .update(webhooks)
        .set({
          ...(body.url !== undefined && { url: body.url }),
          ...(body.event !== undefined && { event: body.event }),
          ...(body.basic_user !== undefined && { basicUser: body.basic_user }),
          ...(body.basic_secret !== undefined && { basicSecret: body.basic_secret }),
          ...(body.userdata !== undefined && { userdata: body.userdata }),
          // Leaving `error` clears its reason; a reset counts bad responses afresh from now.
          ...(body.status !== undefined && { status: body.status, error: null }),
          ...(resuming && { failuresCountedSince: now }),
          updatedAt: now,
        })
        .where(eq(webhooks.id, id));
      // Deliveries set aside while the webhook was not enabled are sent now rather than after their backoff.
      if (resuming) await resumeDeliveries(tx, id, now);
      if (body.status === "disabled" && previous.status === "enabled") await pauseDeliveries(tx, id);
      await emitEvent(tx, { resource: "webhook", op: "update", id });
    });
    return c.body(await webhookJson(ctx, id), 200, jsonHeaders);
  });

  app.delete("/:id", async (c) => {
    const id = pathId(c);
    await ctx.db.transaction(async (tx) => {
      await lockWebhook(tx, id);
      await tx.delete(webhooks).where(eq(webhooks.id, id));
      // Subscribers to webhook.update learn of the removal; the notification's url then answers 404.
      await emitEvent(tx, { resource: "webhook", op: "update", id });
    });
    return c.body(null, 204);
  });

  app.get("/:id/deliveries", async (c) => {
    const id = pathId(c);
    const { query, raw } = parseQuery(new URL(c.req.url), listQueries.webhook_delivery);
    const [exists] = await ctx.db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.id, id));
    if (!exists) throw noWebhook(id);
    const pageUrl = `${listUrl}/${encodeURIComponent(id)}/deliveries`;
    return c.body(await listPage(ctx.database.pool, deliverySource, query, raw, pageUrl, { webhook_id: id }), 200, jsonHeaders);
  });

  // One attempt now, answered with the attempt (201) whatever the receiver said: the attempt is what was asked for.
  const attemptJson = async (attemptId: string) => (await objectJson(ctx.database.pool, deliverySource, attemptId))!;
  app.post("/:id/notifications/:notification_id/resend", async (c) => {
    const attemptId = await resendNotification(ctx, pathId(c), pathId(c, "notification_id"));
    return c.body(await attemptJson(attemptId), 201, jsonHeaders);
  });
  app.post("/:id/test", async (c) => c.body(await attemptJson(await sendTestNotification(ctx, pathId(c))), 201, jsonHeaders));

  return app;
}

const noWebhook = (id: string) => notFound(`No webhook with id ${id}`);

/** Locks the webhook for this transaction (before its deliveries, like the worker) or answers 404. */
async function lockWebhook(tx: SandboxDb, id: string) {
  const [row] = await tx.select({ status: webhooks.status }).from(webhooks).where(eq(webhooks.id, id)).for("no key update");
  if (!row) throw noWebhook(id);
  return row;
}
