import { sql } from "drizzle-orm";
import { bigserial, index, jsonb, text } from "drizzle-orm/pg-core";
import { consoleSchema, moment } from "./base";

/**
 * Append-only: a trigger (see the migration) refuses DELETE and TRUNCATE, and allows one UPDATE per row only, from
 * outcome `pending` to its final outcome, touching nothing but outcome, after, error and finished_at.
 */
export const auditRecords = consoleSchema.table(
  "audit_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: moment("at")
      .notNull()
      .default(sql`date_trunc('second', now())`),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    role: text("role").notNull(),
    environment: text("environment"),
    action: text("action").notNull(),
    targetId: text("target_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    outcome: text("outcome", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    error: text("error"),
    requestId: text("request_id").notNull(),
    finishedAt: moment("finished_at"),
  },
  (table) => [
    index("audit_records_at_idx").on(table.at, table.id),
    index("audit_records_actor_idx").on(table.actorEmail, table.at),
    index("audit_records_target_idx").on(table.targetId, table.at),
    // A create's record has no target (the bank gives the id in its answer): its history is found by the id in `after`
    // (lib/audit/trail.ts), through this index rather than by reading every record.
    index("audit_records_created_id_idx")
      .on(sql`(${table.after} ->> 'id')`, table.at)
      .where(sql`${table.targetId} IS NULL`),
  ],
);
