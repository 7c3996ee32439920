import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** The console's own tables live in the `console` schema, apart from the sandbox bank's. */
export const consoleSchema = pgSchema("console");

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const staffUsers = consoleSchema.table("staff_users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  role: text("role", { enum: ["admin", "operations", "compliance", "viewer"] }).notNull(),
  /** scrypt hash (lib/auth/password.ts); null for users who only sign in through single sign-on. */
  passwordHash: text("password_hash"),
  locked: boolean("locked").notNull().default(false),
  /** The single sign-on identity bound on first SSO sign-in (`<issuer> <sub>`); later SSO sign-ins match on it. */
  ssoSubject: text("sso_subject").unique(),
  createdAt: moment("created_at").notNull().defaultNow(),
});

/**
 * Every signed-in session, server-side (lib/auth/sessions.ts): the session cookie carries only this id, so deleting
 * the row ends the session at once (sign-out, lock, role change, removal, "sign out everywhere").
 */
export const staffSessions = consoleSchema.table(
  "staff_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    createdAt: moment("created_at").notNull().defaultNow(),
    expiresAt: moment("expires_at").notNull(),
    /** What an admin sees in Staff to tell sessions apart. */
    userAgent: text("user_agent"),
    address: text("address"),
  },
  (table) => [index("staff_sessions_user_idx").on(table.userId), index("staff_sessions_expires_idx").on(table.expiresAt)],
);

/**
 * Append-only: a trigger (see the migration) refuses DELETE and TRUNCATE, and allows one UPDATE per row only, from
 * outcome `pending` to its final outcome, touching nothing but outcome, after, error and finished_at.
 */
export const auditRecords = consoleSchema.table(
  "audit_records",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: moment("at").notNull().default(sql`date_trunc('second', now())`),
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

/** Bank credentials saved by an admin; `sealed_auth` is AES-256-GCM ciphertext (lib/credentials/seal.ts). */
export const bankCredentials = consoleSchema.table("bank_credentials", {
  environment: text("environment", { enum: ["sandbox", "production"] }).primaryKey(),
  baseUrl: text("base_url").notNull(),
  authType: text("auth_type", { enum: ["basic", "bearer"] }).notNull(),
  sealedAuth: text("sealed_auth").notNull(),
  updatedAt: moment("updated_at").notNull().defaultNow(),
  updatedBy: text("updated_by").notNull(),
});

/**
 * The sign-in throttle (lib/auth/throttle.ts), shared by every console instance: per key (an email or a client
 * address), how many password checks were admitted in the current window and when the last one was.
 */
export const signInThrottle = consoleSchema.table(
  "sign_in_throttle",
  {
    key: text("key").primaryKey(),
    admitted: integer("admitted").notNull(),
    lastAdmittedAt: moment("last_admitted_at").notNull(),
    /** The attempt that was admitted last: an attempt learns from the row it wrote whether it was the one admitted. */
    lastAttemptId: text("last_attempt_id").notNull(),
  },
  (table) => [index("sign_in_throttle_last_admitted_idx").on(table.lastAdmittedAt)],
);

/**
 * One row: a number the database raises (statement triggers, see the migration) in the same transaction as every
 * change to what decides access: staff users (role, lock, removal, password), their sessions and saved bank
 * credentials. Console processes cache users and bank clients for as long as they read the same number
 * (lib/auth/access-cache.ts); a table that joins the access decision (staff_sessions) gets the same trigger.
 */
export const accessVersion = consoleSchema.table(
  "access_version",
  {
    id: boolean("id").primaryKey().default(true),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (table) => [check("access_version_one_row", sql`${table.id}`)],
);

/**
 * The console's index of the bank (docs/bank-index.md). The receiver's Basic credentials, per environment: the bank
 * sends them with every notification. `sealed_secret` is AES-256-GCM ciphertext like the bank credentials; the secret
 * is never shown after creation. `generation` rises with each rotation and is written into each subscription's
 * userdata, so the console knows which subscriptions still carry an old secret.
 */
export const receiverCredentials = consoleSchema.table("receiver_credentials", {
  environment: text("environment", { enum: ["sandbox", "production"] }).primaryKey(),
  username: text("username").notNull(),
  sealedSecret: text("sealed_secret").notNull(),
  keyId: text("key_id").notNull(),
  createdAt: moment("created_at").notNull().defaultNow(),
  createdBy: text("created_by").notNull(),
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
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    event: text("event").notNull(),
    op: text("op").notNull(),
    resource: text("resource").notNull(),
    objectId: text("object_id").notNull(),
    url: text("url").notNull(),
    receivedAt: moment("received_at").notNull().defaultNow(),
    lastReceivedAt: moment("last_received_at").notNull().defaultNow(),
    deliveries: integer("deliveries").notNull().default(1),
    state: text("state", { enum: ["pending", "processing", "processed"] }).notNull().default("pending"),
    /** What processing found: `changed` (a new version), `unchanged`, `older` (an older state than the one kept), `gone` (404). */
    outcome: text("outcome", { enum: ["changed", "unchanged", "older", "gone"] }),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: moment("next_attempt_at").notNull().defaultNow(),
    leaseUntil: moment("lease_until"),
    /** Why the last attempt to fetch the object failed; kept while the row waits for its next attempt. */
    error: text("error"),
    processedAt: moment("processed_at"),
  },
  (table) => [
    uniqueIndex("bank_event_inbox_one_waiting").on(table.environment, table.event, table.objectId).where(sql`${table.state} = 'pending' AND ${table.attempts} = 0`),
    index("bank_event_inbox_due_idx").on(table.nextAttemptAt).where(sql`${table.state} <> 'processed'`),
    index("bank_event_inbox_received_idx").on(table.environment, table.receivedAt, table.id),
    index("bank_event_inbox_object_idx").on(table.environment, table.objectId, table.receivedAt),
  ],
);

/** The latest state of every bank object the console has seen, unmasked (every read masks it, lib/pii.ts). */
export const bankObjects = consoleSchema.table(
  "bank_objects",
  {
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
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
  ],
);

/**
 * Every state the console has seen each object in, in the order it saw them. `id` doubles as the position in the live
 * feed (SSE `Last-Event-ID`): rows are written under one lock, so ids commit in increasing order.
 */
export const bankObjectVersions = consoleSchema.table(
  "bank_object_versions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
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
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
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
