import { eq, sql } from "drizzle-orm";
import type { SandboxContext } from "../context";
import { webhookDeliveries } from "../db/webhook-schema";
import { newId } from "../events/emit";
import type { ClaimedDelivery } from "../webhooks/delivery-store";
import { faultsOf } from "./faults";

/** What a webhook fault does to a claimed delivery: postponed (not sent now), dropped (a failed attempt), or neither. */
export type WebhookFaultEffect = { postponed: true } | { dropped: string } | undefined;

/**
 * Applies the webhook faults set with POST /sandbox/faults (./faults.ts) to a delivery the worker has claimed
 * (sandbox/webhooks/worker.ts): `delay` gives the claim back due `delay_ms` later, `drop` makes the attempt a failure
 * without sending (retried like any failure), `duplicate` queues a second delivery of the same event, sent as well.
 * A delayed delivery and a duplicate are sent as they are at their next claim, so a fault never repeats on them.
 */
export async function applyWebhookFault(ctx: Pick<SandboxContext, "db" | "now">, delivery: ClaimedDelivery): Promise<WebhookFaultEffect> {
  const faults = faultsOf(ctx);
  if (faults.useExemption(delivery.id)) return undefined;
  const fault = faults.takeForDelivery(ctx.now());
  if (!fault) return undefined;
  if (fault.webhooks === "drop") return { dropped: `dropped by sandbox fault ${fault.id}: not sent` };
  if (fault.webhooks === "delay") {
    faults.exemptDelivery(delivery.id);
    // Due on the sandbox clock, which the worker's claim compares with (advancing the clock makes it due sooner).
    const due = new Date(ctx.now().getTime() + (fault.delay_ms ?? 0));
    await ctx.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: due, lockedUntil: null, updatedAt: sql`now()` })
      .where(eq(webhookDeliveries.id, delivery.id));
    return { postponed: true };
  }
  const copy = newId("dlv");
  faults.exemptDelivery(copy);
  await ctx.db.execute(sql`
    insert into sandbox.webhook_deliveries (id, event_id, webhook_id, state, attempts, next_attempt_at, locked_until, created_at, updated_at)
    select ${copy}, event_id, webhook_id, 'pending', 0, now(), null, now(), now() from sandbox.webhook_deliveries where id = ${delivery.id}`);
  return undefined;
}
