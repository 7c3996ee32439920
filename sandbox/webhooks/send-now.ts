import { and, eq, sql } from "drizzle-orm";
import type { SandboxDb } from "@/sandbox/db";
import { events, webhookDeliveries, webhooks } from "@/sandbox/db/webhook-schema";
import { newId } from "@/sandbox/events/emit";
import { ApiError, notFound } from "@/sandbox/http/errors";
import type { NotificationOp } from "@/lib/contract/events";
import type { ResourceName } from "@/lib/contract/names";
import { enterErrorIfThresholdReached, insertAttempt, type AttemptOutcome, type ClaimedDelivery } from "./delivery-store";
import { keptConnections } from "./post";
import { send, type DeliveryWorkerContext } from "./worker";

/**
 * Notifications sent now, once, because someone asked (docs/webhooks.md, "Resend and test"): a resend of one the
 * webhook already has, or a test notification. Each is one attempt, made while the request waits and recorded like the
 * worker's, under the notification it belongs to: a resend adds an attempt to its notification (delivered if the
 * receiver acknowledges it; otherwise its state and retry schedule stay as they were), a test is a notification of its
 * own that is never retried. Only an `enabled` webhook is sent to (spec: only enabled webhooks issue notifications).
 */

/** The claim on a notification sent now: as long as the worker's, so the worker never sends it at the same time. */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 1000;
const conflict = (message: string) => new ApiError(409, message);

/** `webhook.test`, about the webhook itself: its `url` answers the webhook, and no resource's event is faked. */
export const testEvent = { name: "webhook.test", op: "test" } as const;

async function enabledWebhook(db: SandboxDb, webhookId: string) {
  const [hook] = await db.select().from(webhooks).where(eq(webhooks.id, webhookId));
  if (!hook) throw notFound(`No webhook with id ${webhookId}`);
  if (hook.status !== "enabled") {
    throw conflict(`Webhook ${webhookId} is ${hook.status}: only an enabled webhook is sent notifications; enable it (PATCH status enabled) first`);
  }
  return hook;
}

/** Sends notification `notificationId` of webhook `webhookId` once more; answers the id of the attempt recorded. */
export async function resendNotification(ctx: DeliveryWorkerContext, webhookId: string, notificationId: string): Promise<string> {
  const hook = await enabledWebhook(ctx.db, webhookId);
  const lease = leaseMs(ctx.settings.webhooks.requestTimeoutMs);
  const claimed = await ctx.db.execute<{ attempts: number; name: string; op: NotificationOp; resource: ResourceName; object_id: string }>(sql`
    update sandbox.webhook_deliveries d
    set locked_until = clock_timestamp() + make_interval(secs => ${lease / 1000}), updated_at = now()
    from sandbox.events e
    where d.id = ${notificationId} and d.webhook_id = ${webhookId} and e.id = d.event_id
      and (d.locked_until is null or d.locked_until <= clock_timestamp())
    returning d.attempts, e.name, e.op, e.resource, e.object_id`);
  const [row] = claimed.rows;
  if (!row) {
    const [exists] = await ctx.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, notificationId), eq(webhookDeliveries.webhookId, webhookId)));
    if (!exists) throw notFound(`Webhook ${webhookId} has no notification ${notificationId}`);
    throw conflict(`Notification ${notificationId} is being sent right now; look at its attempts in a moment`);
  }
  const delivery: ClaimedDelivery = {
    id: notificationId,
    attempts: row.attempts,
    webhookId,
    url: hook.url,
    basicUser: hook.basicUser,
    basicSecret: hook.basicSecret,
    event: row.name,
    op: row.op,
    resource: row.resource,
    objectId: row.object_id,
  };
  return sendAndRecord(ctx, delivery, "keep");
}

/** Sends webhook `webhookId` a `webhook.test` notification once; answers the id of the attempt recorded. */
export async function sendTestNotification(ctx: DeliveryWorkerContext, webhookId: string): Promise<string> {
  const hook = await enabledWebhook(ctx.db, webhookId);
  const eventId = newId("evt");
  const notificationId = newId("dlv");
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await tx.insert(events).values({ id: eventId, name: testEvent.name, op: testEvent.op, resource: "webhook", objectId: webhookId, createdAt: now });
    // Claimed from the start (a lease), so the worker never picks it up: it is sent here, once.
    await tx.insert(webhookDeliveries).values({
      id: notificationId,
      eventId,
      webhookId,
      state: "pending",
      lockedUntil: sql`clock_timestamp() + make_interval(secs => ${leaseMs(ctx.settings.webhooks.requestTimeoutMs) / 1000})`,
      createdAt: now,
      updatedAt: now,
    });
  });
  const delivery: ClaimedDelivery = {
    id: notificationId,
    attempts: 0,
    webhookId,
    url: hook.url,
    basicUser: hook.basicUser,
    basicSecret: hook.basicSecret,
    event: testEvent.name,
    op: testEvent.op,
    resource: "webhook",
    objectId: webhookId,
  };
  return sendAndRecord(ctx, delivery, "failed");
}

/**
 * POSTs the claimed notification once and records the attempt. A failure leaves the notification's state as it was
 * (`keep`: a pending one keeps its next retry, a failed one stays failed) or makes it `failed` (a test, never retried);
 * it counts toward the error threshold like any bad response.
 */
async function sendAndRecord(ctx: DeliveryWorkerContext, delivery: ClaimedDelivery, onFailure: "keep" | "failed"): Promise<string> {
  const connections = keptConnections();
  let outcome: AttemptOutcome | undefined;
  try {
    outcome = await send(ctx, delivery, new AbortController().signal, connections);
  } finally {
    connections.close();
  }
  // Without a stop signal that fires, send always answers; the guard keeps the types honest.
  if (!outcome) throw new Error("the attempt ended without an outcome");
  const attempt = delivery.attempts + 1;
  const failedState = onFailure === "failed" ? sql`'failed'` : sql`${webhookDeliveries.state}`;
  return ctx.db.transaction(async (tx) => {
    // Webhook before delivery, the order every writer of both follows (no deadlock).
    await tx.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.id, delivery.webhookId)).for("no key update");
    await tx
      .update(webhookDeliveries)
      .set({ attempts: attempt, state: outcome.succeeded ? "delivered" : failedState, lockedUntil: null, updatedAt: sql`now()` })
      .where(eq(webhookDeliveries.id, delivery.id));
    const attemptId = await insertAttempt(tx, delivery, outcome);
    if (!outcome.succeeded) await enterErrorIfThresholdReached(tx, ctx.settings.webhooks, delivery.webhookId, outcome);
    return attemptId;
  });
}
