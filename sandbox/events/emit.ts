import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { SandboxDb } from "@/sandbox/db";
import { events, webhookDeliveries, webhooks } from "@/sandbox/db/webhook-schema";
import type { EventOp, ResourceName } from "@/lib/contract/events";

/** An id of the sandbox: `<prefix>_` and 24 random hex characters. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

/**
 * Records that `<resource>.<op>` happened to object `id` and queues one delivery per enabled webhook subscribed
 * to that event. Call it with the transaction that makes the change: the change and its notifications commit
 * (or roll back) together, and the delivery worker picks the queued rows up once committed.
 */
export async function emitEvent(db: SandboxDb, event: { resource: ResourceName; op: EventOp; id: string }): Promise<void> {
  const name = `${event.resource}.${event.op}`;
  const eventId = newId("evt");
  await db.insert(events).values({ id: eventId, name, op: event.op, resource: event.resource, objectId: event.id });
  await db.insert(webhookDeliveries).select(
    db
      .select({
        id: sql<string>`'dlv_' || replace(gen_random_uuid()::text, '-', '')`.as("id"),
        eventId: sql<string>`${eventId}`.as("event_id"),
        webhookId: webhooks.id,
        state: sql<"pending">`'pending'`.as("state"),
        attempts: sql<number>`0`.as("attempts"),
        nextAttemptAt: sql<Date>`now()`.as("next_attempt_at"),
        lockedUntil: sql<Date | null>`null`.as("locked_until"),
        createdAt: sql<Date>`now()`.as("created_at"),
        updatedAt: sql<Date>`now()`.as("updated_at"),
      })
      .from(webhooks)
      .where(and(eq(webhooks.event, name), eq(webhooks.status, "enabled"))),
  );
}
