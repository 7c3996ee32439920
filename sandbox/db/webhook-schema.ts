import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, text, timestamp } from "drizzle-orm/pg-core";
import { sandboxSchema } from "./tables";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

/** `test`: the test notification (`POST /webhook/{id}/test`), never an event of a resource. */
const notificationOps = ["create", "update", "test"] as const;

export const webhookStatuses = ["enabled", "error", "disabled"] as const;
export type WebhookStatus = (typeof webhookStatuses)[number];

/** A registered receiver of one event. `basic_secret` is stored so notifications can carry it; never returned. */
export const webhooks = sandboxSchema.table(
  "webhooks",
  {
    id: text("id").primaryKey(),
    url: text("url").notNull(),
    event: text("event").notNull(),
    status: text("status", { enum: webhookStatuses }).notNull().default("enabled"),
    basicUser: text("basic_user"),
    basicSecret: text("basic_secret"),
    /** Why the webhook entered `error` (null otherwise). */
    error: text("error"),
    userdata: jsonb("userdata").$type<Record<string, unknown>>(),
    /**
     * Bad responses before this instant do not count toward the error threshold: a reset (PATCH status enabled)
     * moves it forward so the failures that caused the error cannot trip it again at once.
     */
    failuresCountedSince: timestamp("failures_counted_since", { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (table) => [
    index("webhooks_created_at_id_idx").on(table.createdAt.desc(), table.id.desc()),
    index("webhooks_event_status_idx").on(table.event, table.status),
  ],
);

/** Every event the sandbox emitted: `<resource>.<op>` about one object. */
export const events = sandboxSchema.table(
  "events",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    op: text("op", { enum: notificationOps }).notNull(),
    resource: text("resource").notNull(),
    objectId: text("object_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("events_created_at_id_idx").on(table.createdAt.desc(), table.id.desc())],
);

/** `paused`: pending, but its webhook is in `error` or `disabled`; a reset makes it `pending` (and due) again. */
export const deliveryStates = ["pending", "paused", "delivered", "failed"] as const;
export type DeliveryState = (typeof deliveryStates)[number];

/**
 * The outbox: one row per (event, webhook), written in the transaction that made the change. The delivery worker
 * claims due `pending` rows by setting `locked_until` (a lease: a worker that dies mid-delivery loses its claim
 * when the lease expires, so the delivery is retried after a restart).
 */
export const webhookDeliveries = sandboxSchema.table(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    state: text("state", { enum: deliveryStates }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    // Claiming scans only the pending rows, soonest first.
    index("webhook_deliveries_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.state} = 'pending'`),
    index("webhook_deliveries_webhook_idx").on(table.webhookId, table.state),
    index("webhook_deliveries_event_idx").on(table.eventId),
  ],
);

/** Every HTTP attempt of a delivery, kept for `GET /webhook/{id}/deliveries`. */
export const deliveryAttempts = sandboxSchema.table(
  "webhook_delivery_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    // What was notified, copied from the event so the deliveries list reads one table.
    event: text("event").notNull(),
    op: text("op", { enum: notificationOps }).notNull(),
    objectId: text("object_id").notNull(),
    /** 1 for the first try; at most 16 (one try and 15 retries). */
    attempt: integer("attempt").notNull(),
    url: text("url").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull(),
    /** The receiver's HTTP status, null when none came (connection refused, timeout). */
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    succeeded: boolean("succeeded").notNull(),
    error: text("error"),
    /** The body POSTed, exactly as sent (null for attempts recorded before it was kept). */
    requestBody: text("request_body"),
    /** The start of the receiver's reply (at most 4 KiB as UTF-8), null when no HTTP answer came. */
    responseBody: text("response_body"),
  },
  (table) => [
    // The deliveries list pages by attempt time, newest first.
    index("webhook_delivery_attempts_list_idx").on(table.webhookId, table.attemptedAt.desc(), table.id.desc()),
    index("webhook_delivery_attempts_failures_idx")
      .on(table.webhookId, table.attemptedAt)
      .where(sql`not ${table.succeeded}`),
    index("webhook_delivery_attempts_delivery_idx").on(table.deliveryId),
  ],
);
