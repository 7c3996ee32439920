import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { SandboxDb } from "@/sandbox/db";
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
  // One statement, not two: every change of the bank pays for it (docs/benchmarks.md, bench:events).
  await db.execute(sql`
    with recorded as (
      insert into sandbox.events (id, name, op, resource, object_id)
      values (${newId("evt")}, ${name}, ${event.op}, ${event.resource}, ${event.id})
      returning id
    )
    insert into sandbox.webhook_deliveries (id, event_id, webhook_id, state, attempts, next_attempt_at, locked_until, created_at, updated_at)
    select 'dlv_' || replace(gen_random_uuid()::text, '-', ''), recorded.id, hook.id, 'pending', 0, now(), null, now(), now()
    from recorded, sandbox.webhooks hook
    where hook.event = ${name} and hook.status = 'enabled'`);
}
