import { and, count, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import type { SandboxDb } from "@/sandbox/db";
import { deliveryAttempts, webhookDeliveries, webhooks, type WebhookStatus } from "@/sandbox/db/webhook-schema";
import { emitEvent, newId } from "@/sandbox/events/emit";
import type { NotificationOp } from "@/lib/contract/events";
import type { ResourceName } from "@/lib/contract/names";
import { maxDeliveryAttempts, retryDelayMs, type WebhookSettings } from "./settings";

/** A due delivery the worker has claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  /** Attempts made before this claim; recording the result checks it did not change meanwhile. */
  attempts: number;
  webhookId: string;
  url: string;
  basicUser: string | null;
  basicSecret: string | null;
  event: string;
  /** `test` only for the test notification (./send-now.ts). */
  op: NotificationOp;
  resource: ResourceName;
  objectId: string;
}

/**
 * Claims up to `limit` due deliveries of enabled webhooks for `leaseMs`, in one statement (so no transaction stays
 * open). SKIP LOCKED lets several workers (processes sharing one PostgreSQL) claim without waiting on each other;
 * the lease makes a claim of a worker that died expire.
 *
 * Due means `next_attempt_at` has come on the sandbox clock (`now`, ctx.now()): a retry falls due when the clock is
 * advanced past it. The lease stays on the database's wall clock: it guards against a worker that died, in real
 * time, and must not expire because a test moved the sandbox clock while a request is in flight.
 */
export async function claimDueDeliveries(db: SandboxDb, limit: number, leaseMs: number, now: Date): Promise<ClaimedDelivery[]> {
  const result = await db.execute<{
    id: string;
    attempts: number;
    webhook_id: string;
    url: string;
    basic_user: string | null;
    basic_secret: string | null;
    name: string;
    op: NotificationOp;
    resource: ResourceName;
    object_id: string;
  }>(sql`
    update sandbox.webhook_deliveries d
    set locked_until = clock_timestamp() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
    from sandbox.webhooks w, sandbox.events e
    where d.id in (
      select due.id from sandbox.webhook_deliveries due
      join sandbox.webhooks hook on hook.id = due.webhook_id
      where due.state = 'pending' and due.next_attempt_at <= ${now.toISOString()}::timestamptz
        and (due.locked_until is null or due.locked_until <= clock_timestamp())
        and hook.status = 'enabled'
      order by due.next_attempt_at
      limit ${limit}
      for update of due skip locked
    )
    and w.id = d.webhook_id and e.id = d.event_id
    returning d.id, d.attempts, d.webhook_id, w.url, w.basic_user, w.basic_secret, e.name, e.op, e.resource, e.object_id`);
  return result.rows.map((row) => ({
    id: row.id,
    attempts: row.attempts,
    webhookId: row.webhook_id,
    url: row.url,
    basicUser: row.basic_user,
    basicSecret: row.basic_secret,
    event: row.name,
    op: row.op,
    resource: row.resource,
    objectId: row.object_id,
  }));
}

/** Gives claims back without counting an attempt (the worker is stopping). */
export async function releaseClaims(db: SandboxDb, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.update(webhookDeliveries).set({ lockedUntil: null }).where(inArray(webhookDeliveries.id, ids));
}

/**
 * Gives back every claim, whoever made it. Only where no other live worker can hold one: at the start of a sandbox on
 * embedded PGlite, which one process owns (a claim left there is a killed process's, whose lease would hold its
 * delivery back up to 2 × the request timeout + 1 s), and for deliveries a snapshot restore has just written.
 */
export async function releaseEveryClaim(db: SandboxDb): Promise<void> {
  await db.update(webhookDeliveries).set({ lockedUntil: null }).where(isNotNull(webhookDeliveries.lockedUntil));
}

export interface AttemptOutcome {
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  succeeded: boolean;
  error: string | null;
  /** The notification's body as sent (or as it would have been, when the target was refused before connecting). */
  requestBody: string;
  /** The start of the reply (post.ts maxReplyBytes); null when no HTTP answer came. */
  responseBody: string | null;
}

/**
 * Writes one attempt's row: the delivery's next attempt with its outcome, under a new id (returned). The caller holds
 * the transaction that settles the delivery with it.
 */
export async function insertAttempt(tx: SandboxDb, delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<string> {
  const id = newId("whd");
  await tx.insert(deliveryAttempts).values({
    id,
    deliveryId: delivery.id,
    webhookId: delivery.webhookId,
    event: delivery.event,
    op: delivery.op,
    objectId: delivery.objectId,
    attempt: delivery.attempts + 1,
    url: delivery.url,
    attemptedAt: outcome.attemptedAt,
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    succeeded: outcome.succeeded,
    error: outcome.error,
    requestBody: outcome.requestBody,
    responseBody: outcome.responseBody,
  });
  return id;
}

/**
 * Records a failed attempt and schedules what follows (a retry after a backoff delay, or failed after the last
 * attempt); a failure that reaches the error threshold puts the webhook in `error` and emits webhook.update, all in
 * one short transaction. Delivered attempts are recorded in batches (recordDeliveredAttempts).
 */
export async function recordFailedAttempt(
  db: SandboxDb,
  settings: WebhookSettings,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
): Promise<void> {
  const attempt = delivery.attempts + 1;
  const exhausted = attempt >= maxDeliveryAttempts;
  const retryAfterMs = exhausted ? 0 : retryDelayMs(settings, attempt);
  // The backoff counts on the sandbox clock from the attempt's end, so advancing the clock makes the retry due.
  const nextAttemptAt = new Date(outcome.attemptedAt.getTime() + outcome.latencyMs + retryAfterMs);
  await db.transaction(async (tx) => {
    // Attempts of one webhook are recorded one at a time, so concurrent failures cannot each count one short of
    // the threshold. Webhook before delivery, the order every writer of both follows (no deadlock).
    const [hook] = await tx.select({ status: webhooks.status }).from(webhooks).where(eq(webhooks.id, delivery.webhookId)).for("no key update");
    // A retry of a webhook that left `enabled` while this attempt was in flight waits for its reset.
    const retryState = hook?.status === "enabled" ? "pending" : "paused";
    const state = exhausted ? "failed" : retryState;
    const updated = await tx
      .update(webhookDeliveries)
      .set({
        attempts: attempt,
        state,
        lockedUntil: null,
        nextAttemptAt,
        updatedAt: sql`now()`,
      })
      // Someone else recorded this attempt (our lease expired) or the webhook was deleted: nothing to record.
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.attempts, delivery.attempts),
          // Paused while this attempt was in flight: still ours to record.
          inArray(webhookDeliveries.state, ["pending", "paused"]),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (updated.length === 0) return;
    await insertAttempt(tx, delivery, outcome);
    await enterErrorIfThresholdReached(tx, settings, delivery.webhookId, outcome);
  });
}

/** A delivery the receiver acknowledged, with its attempt, to be recorded (recordDeliveredAttempts). */
export interface DeliveredAttempt {
  delivery: ClaimedDelivery;
  outcome: AttemptOutcome;
}

/**
 * Records delivered attempts, many in one statement: the common case, so it costs one round trip for a whole batch
 * instead of a transaction's five per attempt (at 200 deliveries/s, the sandbox spent a third of its time writing
 * queries to PostgreSQL). A success counts toward no threshold, so it does not wait for the webhook's lock; it takes
 * the key-share lock the attempt's foreign key would take anyway, first and in id order, the order every writer
 * follows (webhooks, then deliveries). An attempt someone else recorded meanwhile (its lease expired) is skipped.
 */
export async function recordDeliveredAttempts(db: SandboxDb, delivered: DeliveredAttempt[]): Promise<void> {
  if (delivered.length === 0) return;
  // A VALUES list, so the planner knows how few rows there are. With the rows in one JSON parameter (which it cannot
  // count) a batch of about four took 2.65 ms on average against 0.5 ms this way (pg_stat_statements, bench:events).
  const done = sql.join(
    delivered.map(
      ({ delivery, outcome }) =>
        sql`(${newId("whd")}::text, ${delivery.id}::text, ${delivery.attempts}::integer, ${delivery.webhookId}::text, ${delivery.event}::text,
          ${delivery.op}::text, ${delivery.objectId}::text, ${delivery.url}::text, ${outcome.attemptedAt.toISOString()}::timestamptz,
          ${outcome.statusCode}::integer, ${outcome.latencyMs}::integer, ${outcome.requestBody}::text, ${outcome.responseBody}::text)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    with done (attempt_id, delivery_id, prior_attempts, webhook_id, event, op, object_id, url, attempted_at, status_code, latency_ms,
      request_body, response_body) as (values ${done}),
    hook as (select id from sandbox.webhooks where id in (select webhook_id from done) order by id for key share),
    recorded as (
      update sandbox.webhook_deliveries delivery
      set attempts = done.prior_attempts + 1, state = 'delivered', locked_until = null, next_attempt_at = clock_timestamp(), updated_at = now()
      from done
      where delivery.id = done.delivery_id and delivery.attempts = done.prior_attempts and delivery.state in ('pending', 'paused')
        and exists (select 1 from hook where hook.id = done.webhook_id)
      returning delivery.id
    )
    insert into sandbox.webhook_delivery_attempts
      (id, delivery_id, webhook_id, event, op, object_id, attempt, url, attempted_at, status_code, latency_ms, succeeded, error, request_body, response_body)
    select done.attempt_id, done.delivery_id, done.webhook_id, done.event, done.op, done.object_id, done.prior_attempts + 1, done.url,
      done.attempted_at, done.status_code, done.latency_ms, true, null, done.request_body, done.response_body
    from done join recorded on recorded.id = done.delivery_id`);
}

/** A failed attempt counts toward the error threshold: enough within the window put the webhook in `error`. */
export async function enterErrorIfThresholdReached(
  tx: SandboxDb,
  settings: WebhookSettings,
  webhookId: string,
  outcome: AttemptOutcome,
): Promise<void> {
  const windowStart = new Date(outcome.attemptedAt.getTime() - settings.errorWindowMs);
  const [counted] = await tx
    .select({ failures: count() })
    .from(deliveryAttempts)
    .innerJoin(webhooks, eq(webhooks.id, deliveryAttempts.webhookId))
    .where(
      and(
        eq(deliveryAttempts.webhookId, webhookId),
        eq(deliveryAttempts.succeeded, false),
        gt(deliveryAttempts.attemptedAt, sql`greatest(${windowStart}::timestamptz, ${webhooks.failuresCountedSince})`),
      ),
    );
  const failures = counted?.failures ?? 0;
  if (failures < settings.errorThreshold) return;
  await stopWebhook(tx, webhookId, "enabled", { status: "error", error: errorReason(settings, failures, outcome.error) }, outcome.attemptedAt);
}

/** Why a webhook entered `error`, as its `error` field says it. */
export function errorReason(settings: WebhookSettings, failures: number, lastError: string | null): string {
  return `${failures} bad responses within ${settings.errorWindowMs / 1000} s; last: ${lastError ?? "no response"}`;
}

/**
 * Moves a webhook that is still `from` to `error` or `disabled` (false when it is no longer `from`): leaving `enabled`
 * pauses its pending deliveries, and webhook.update is emitted, all with the caller's transaction. The error
 * threshold and the control API's transitions (sandbox/control/transition.ts) both stop a webhook through it.
 */
export async function stopWebhook(
  tx: SandboxDb,
  webhookId: string,
  from: WebhookStatus,
  to: { status: "error" | "disabled"; error: string | null },
  at: Date,
): Promise<boolean> {
  const stopped = await tx
    .update(webhooks)
    .set({ status: to.status, error: to.error, updatedAt: at })
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.status, from)))
    .returning({ id: webhooks.id });
  if (stopped.length === 0) return false;
  if (from === "enabled") await pauseDeliveries(tx, webhookId);
  await emitEvent(tx, { resource: "webhook", op: "update", id: webhookId });
  return true;
}

/**
 * A webhook left `enabled`: its pending deliveries are kept but set aside, so that claiming never scans them.
 * Call with the webhook locked (the route and the worker both lock it first).
 */
export async function pauseDeliveries(tx: SandboxDb, webhookId: string): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ state: "paused", updatedAt: sql`now()` })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.state, "pending")));
}

/** A webhook was reset to `enabled`: its paused (and any pending) deliveries are due at once. */
export async function resumeDeliveries(tx: SandboxDb, webhookId: string, now: Date): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ state: "pending", nextAttemptAt: sql`least(${webhookDeliveries.nextAttemptAt}, ${now}::timestamptz)`, updatedAt: now })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), inArray(webhookDeliveries.state, ["pending", "paused"])));
}
