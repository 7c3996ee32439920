import { randomBytes } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { SandboxDb } from "@/sandbox/db";
import type { EventOp } from "@/lib/contract/events";
import type { ResourceName } from "@/lib/contract/names";

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
  await changeAndEmit(db, sql`select ${event.id}::text as id`, event);
}

/**
 * Runs `change` (a statement returning the `id` of each object it changed) and emits `<resource>.<op>` for each of
 * them with their deliveries, in ONE statement, so atomic without a transaction: every change of the bank pays for
 * its statements, and at 200 changes/s the sandbox spent a third of its time writing them to PostgreSQL
 * (docs/benchmarks.md, bench:events). Returns the ids changed.
 */
export async function changeAndEmit(db: SandboxDb, change: SQL, event: { resource: ResourceName; op: EventOp }): Promise<string[]> {
  const name = `${event.resource}.${event.op}`;
  const result = await db.execute<{ id: string }>(sql`
    with changed as (${change}),
    recorded as (
      insert into sandbox.events (id, name, op, resource, object_id)
      select 'evt_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), ${name}, ${event.op}, ${event.resource}, changed.id from changed
      returning id
    ),
    queued as (
      insert into sandbox.webhook_deliveries (id, event_id, webhook_id, state, attempts, next_attempt_at, locked_until, created_at, updated_at)
      select 'dlv_' || replace(gen_random_uuid()::text, '-', ''), recorded.id, hook.id, 'pending', 0, now(), null, now(), now()
      from recorded, sandbox.webhooks hook
      where hook.event = ${name} and hook.status = 'enabled'
    )
    select id from changed`);
  return result.rows.map((row) => row.id);
}
