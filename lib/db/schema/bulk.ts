import { index, integer, jsonb, primaryKey, text } from "drizzle-orm/pg-core";
import { consoleSchema, environment, moment } from "./base";

/**
 * A bulk action (docs/console-actions.md, "Bulk actions"): one change asked for many objects at once, run on the server
 * by whichever console process holds its lease (lib/bulk/runner.ts), so it survives the tab closing and a restart.
 * `state`: `awaiting_approval` while its change request waits (four-eyes), `queued` until every row is settled, then
 * `done`; `closed` when its request was rejected, withdrawn or expired (nothing sent).
 */
export const bulkJobs = consoleSchema.table(
  "bulk_jobs",
  {
    id: text("id").primaryKey(),
    environment: environment().notNull(),
    action: text("action").notNull(),
    resource: text("resource").notNull(),
    /** The action's arguments: `{key, value}` for userdata, `{reviewer}` for an assignment. */
    params: jsonb("params").notNull(),
    state: text("state", { enum: ["awaiting_approval", "queued", "done", "closed"] }).notNull(),
    makerId: text("maker_id").notNull(),
    makerEmail: text("maker_email").notNull(),
    /** Who the rows are sent as: the maker, or the approver once a held job is approved. */
    runAsId: text("run_as_id"),
    approvalId: integer("approval_id"),
    requestId: text("request_id").notNull(),
    leaseOwner: text("lease_owner"),
    leaseUntil: moment("lease_until"),
    createdAt: moment("created_at").notNull().defaultNow(),
    finishedAt: moment("finished_at"),
  },
  (table) => [index("bulk_jobs_due_idx").on(table.state, table.leaseUntil), index("bulk_jobs_maker_idx").on(table.makerId, table.createdAt)],
);

/**
 * One object of a bulk action. `seen`: what the object was when first read (its `updated_at` and the value the action
 * replaces): when a held job was asked, else just before the row's first send (null until then); compared before
 * sending so a row changed meanwhile is skipped. `state` moves `pending` → `sending` (claimed, before the send) →
 * `done` | `refused` | `failed` | `skipped` | `unknown`; a row found `sending` after a restart is settled by reading
 * the object, never by sending again blindly.
 */
export const bulkRows = consoleSchema.table(
  "bulk_rows",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => bulkJobs.id),
    position: integer("position").notNull(),
    objectId: text("object_id").notNull(),
    seen: jsonb("seen"),
    state: text("state", { enum: ["pending", "sending", "done", "refused", "failed", "skipped", "unknown"] })
      .notNull()
      .default("pending"),
    reason: text("reason"),
    attempts: integer("attempts").notNull().default(0),
    settledAt: moment("settled_at"),
  },
  (table) => [primaryKey({ columns: [table.jobId, table.position] }), index("bulk_rows_state_idx").on(table.jobId, table.state)],
);
