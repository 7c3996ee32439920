import { bigserial, boolean, index, jsonb, text } from "drizzle-orm/pg-core";
import { consoleSchema, environment, moment } from "./base";

/**
 * Four-eyes on changes (docs/approvals.md): per environment, whether every change the console sends to the bank and
 * every change of bank credentials waits for a second person. No row: the default (sandbox off, production on).
 */
export const changeApprovalSettings = consoleSchema.table("change_approval_settings", {
  environment: environment().primaryKey(),
  required: boolean("required").notNull(),
  updatedAt: moment("updated_at").notNull().defaultNow(),
  updatedBy: text("updated_by").notNull(),
});

/**
 * A change held for approval: what will be sent (secrets sealed apart in `sealed_secrets`), who asked and when, until
 * when it may be approved, who decided and the bank's answer. Kept: decided once, its outcome recorded once, never
 * deleted (trigger in migration 0016_change_approvals.sql); the decider is never the maker (CHECK).
 */
export const changeRequests = consoleSchema.table(
  "change_requests",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: environment().notNull(),
    kind: text("kind", { enum: ["bank", "credentials", "setting", "staff", "bulk"] }).notNull(),
    action: text("action").notNull(),
    permission: text("permission").notNull(),
    targetId: text("target_id"),
    operationId: text("operation_id"),
    method: text("method"),
    path: text("path"),
    params: jsonb("params"),
    payload: jsonb("payload"),
    sealedSecrets: text("sealed_secrets"),
    before: jsonb("before"),
    state: text("state", { enum: ["pending", "approved", "rejected", "withdrawn"] })
      .notNull()
      .default("pending"),
    makerId: text("maker_id").notNull(),
    makerEmail: text("maker_email").notNull(),
    makerRole: text("maker_role").notNull(),
    requestedAt: moment("requested_at").notNull().defaultNow(),
    expiresAt: moment("expires_at").notNull(),
    requestId: text("request_id").notNull(),
    decidedById: text("decided_by_id"),
    decidedByEmail: text("decided_by_email"),
    decidedByRole: text("decided_by_role"),
    decidedAt: moment("decided_at"),
    decisionNote: text("decision_note"),
    outcome: text("outcome", { enum: ["succeeded", "failed"] }),
    sentAt: moment("sent_at"),
    result: jsonb("result"),
    error: text("error"),
  },
  (table) => [index("change_requests_list_idx").on(table.environment, table.state, table.id)],
);
