import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, jsonb, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { consoleSchema, environment, moment } from "./base";

/**
 * The console's index of the bank (docs/bank-index.md). The receiver's Basic credentials, per environment: the bank
 * sends them with every notification. `sealed_secret` is AES-256-GCM ciphertext like the bank credentials; the secret
 * is never shown after creation. `key_id` is new with each rotation and is written into each subscription's
 * userdata, so the console knows which subscriptions still carry an old secret (lib/index/subscriptions.ts). A rotation
 * keeps the secret it replaced, sealed the same way, for a short overlap.
 */
export const receiverCredentials = consoleSchema.table("receiver_credentials", {
  environment: environment().primaryKey(),
  username: text("username").notNull(),
  sealedSecret: text("sealed_secret").notNull(),
  keyId: text("key_id").notNull(),
  createdAt: moment("created_at").notNull().defaultNow(),
  createdBy: text("created_by").notNull(),
  /** The secret a rotation replaced, still accepted until `previous_valid_until` (INDEX_RECEIVER_SECRET_OVERLAP_MINUTES). */
  previousSealedSecret: text("previous_sealed_secret"),
  previousValidUntil: moment("previous_valid_until"),
});

/**
 * The durable inbox: every notification received, stored before the receiver answers. One untried row per
 * (environment, event, object): a repeated delivery while it waits only counts (`deliveries`); once claimed
 * (`processing`, or waiting to be retried) a new delivery starts a new row, since it may announce a change made after
 * the worker's fetch.
 */
export const bankEventInbox = consoleSchema.table(
  "bank_event_inbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: environment().notNull(),
    event: text("event").notNull(),
    op: text("op").notNull(),
    resource: text("resource").notNull(),
    objectId: text("object_id").notNull(),
    url: text("url").notNull(),
    receivedAt: moment("received_at").notNull().defaultNow(),
    lastReceivedAt: moment("last_received_at").notNull().defaultNow(),
    deliveries: integer("deliveries").notNull().default(1),
    state: text("state", { enum: ["pending", "processing", "processed"] })
      .notNull()
      .default("pending"),
    /**
     * What processing found: `changed` (a new version), `unchanged`, `older` (an older state than the one kept), `gone`
     * (404 for a kind the bank deletes), or `dead_letter` (given up: refused, or not fetched within the attempt bound).
     */
    outcome: text("outcome", { enum: ["changed", "unchanged", "older", "gone", "dead_letter"] }),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: moment("next_attempt_at").notNull().defaultNow(),
    leaseUntil: moment("lease_until"),
    /** Why the last attempt to fetch the object failed, kept while the row waits for its next attempt; or why it was given up. */
    error: text("error"),
    processedAt: moment("processed_at"),
  },
  (table) => [
    uniqueIndex("bank_event_inbox_one_waiting")
      .on(table.environment, table.event, table.objectId)
      .where(sql`${table.state} = 'pending' AND ${table.attempts} = 0`),
    index("bank_event_inbox_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.state} <> 'processed'`),
    index("bank_event_inbox_received_idx").on(table.environment, table.receivedAt, table.id),
    index("bank_event_inbox_object_idx").on(table.environment, table.objectId, table.receivedAt),
  ],
);

/** The latest state of every bank object the console has seen, unmasked (every read masks it, lib/pii.ts). */
export const bankObjects = consoleSchema.table(
  "bank_objects",
  {
    environment: environment().notNull(),
    id: text("id").notNull(),
    resource: text("resource").notNull(),
    /** The object as the bank last answered; null once the bank answers 404 for it (deleted). */
    state: jsonb("state"),
    /** The bank's `updated_at` of `state`: an older answer never replaces a newer one (events arrive in any order). */
    bankUpdatedAt: moment("bank_updated_at"),
    bankCreatedAt: moment("bank_created_at"),
    version: integer("version").notNull(),
    firstSeenAt: moment("first_seen_at").notNull().defaultNow(),
    lastChangedAt: moment("last_changed_at").notNull().defaultNow(),
    goneAt: moment("gone_at"),
  },
  (table) => [
    primaryKey({ columns: [table.environment, table.id] }),
    index("bank_objects_resource_idx").on(table.environment, table.resource, table.bankCreatedAt),
    // The index's newest change ("updated N s ago"), one lookup instead of a scan of every object (migration 0021).
    index("bank_objects_last_changed_idx").on(table.environment, table.lastChangedAt),
    // The movements naming a counterparty, newest first (migration 0032; lib/customer/movements.ts).
    index("bank_objects_counterparty_idx").on(
      table.environment,
      sql`(${table.state} ->> 'counterparty_id')`,
      table.bankCreatedAt.desc(),
      table.id.desc(),
    ),
  ],
);

/**
 * How many objects of each kind and status the index holds per environment (Home's exact counts). Kept by triggers on
 * `bank_objects` in the writing statement's transaction (migration 0023), never written by the console itself.
 */
export const bankObjectCounts = consoleSchema.table(
  "bank_object_counts",
  {
    environment: environment().notNull(),
    resource: text("resource").notNull(),
    /** The object's `status`, '' for a kind without one. */
    status: text("status").notNull(),
    objects: bigint("objects", { mode: "number" }).notNull().default(0),
    /** Person applications without a person yet (no `person_id`); 0 for every other kind. */
    withoutPerson: bigint("without_person", { mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.environment, table.resource, table.status] })],
);

/**
 * Every state the console has seen each object in, in the order it saw them. `id` doubles as the position in the live
 * feed (SSE `Last-Event-ID`): rows are written under one lock, so ids commit in increasing order.
 */
export const bankObjectVersions = consoleSchema.table(
  "bank_object_versions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: environment().notNull(),
    resource: text("resource").notNull(),
    objectId: text("object_id").notNull(),
    version: integer("version").notNull(),
    /** null: the bank answered 404 (the object was deleted). */
    state: jsonb("state"),
    /** The fields that differ from the previous version (lib/json-diff.ts), [] for the first. */
    changes: jsonb("changes").notNull(),
    seenAt: moment("seen_at").notNull().defaultNow(),
    source: text("source", { enum: ["event", "backfill", "sweep"] }).notNull(),
    /** The inbox row whose processing found this version. */
    eventId: bigint("event_id", { mode: "number" }),
  },
  (table) => [
    uniqueIndex("bank_object_versions_object_idx").on(table.environment, table.objectId, table.version),
    index("bank_object_versions_seen_idx").on(table.seenAt),
  ],
);

/** One row per (environment, list): where the backfill walk stands, so a restart continues from the kept cursor. */
export const indexBackfill = consoleSchema.table(
  "index_backfill",
  {
    environment: environment().notNull(),
    resource: text("resource").notNull(),
    /** The `page_next` still to read; null before the first page and once done. */
    cursor: text("cursor"),
    objects: integer("objects").notNull().default(0),
    pages: integer("pages").notNull().default(0),
    startedAt: moment("started_at").notNull().defaultNow(),
    finishedAt: moment("finished_at"),
    error: text("error"),
    updatedAt: moment("updated_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.environment, table.resource] })],
);
