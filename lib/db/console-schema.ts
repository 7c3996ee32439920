import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** The console's own tables live in the `console` schema, apart from the sandbox bank's. */
export const consoleSchema = pgSchema("console");

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
/** A PostgreSQL `tsvector`, read only by SQL (the search), never by TypeScript. */
const textSearchVector = customType<{ data: string }>({ dataType: () => "tsvector" });

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
    state: text("state", { enum: ["pending", "processing", "processed"] })
      .notNull()
      .default("pending"),
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

/**
 * Compliance review (docs/reviews.md): one case per application the console reviews, per environment. The bank has no
 * decision endpoint, so the console's case is the decision of record. `state`: `open` (being worked), `awaiting_second_review`
 * (a decision proposed, not yet confirmed), `decided` (confirmed). One reviewer at a time: `assignee_id`.
 */
export const reviewCases = consoleSchema.table(
  "review_cases",
  {
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    applicationId: text("application_id").notNull(),
    kind: text("kind", { enum: ["person_application", "business_application"] }).notNull(),
    state: text("state", { enum: ["open", "awaiting_second_review", "decided"] })
      .notNull()
      .default("open"),
    assigneeId: text("assignee_id"),
    assigneeEmail: text("assignee_email"),
    assignedAt: moment("assigned_at"),
    /** The confirmed decision (null until a second reviewer confirmed one). */
    decision: text("decision", { enum: ["approve", "decline", "request_information"] }),
    reasonCode: text("reason_code"),
    decidedAt: moment("decided_at"),
    createdAt: moment("created_at").notNull().defaultNow(),
    updatedAt: moment("updated_at").notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.environment, table.applicationId] }),
    index("review_cases_assignee_idx").on(table.environment, table.assigneeId),
  ],
);

/** What a reviewer verified: per case and item (`identity`, `owner:<person application id>`, …) one mark, changed in place. */
export const reviewChecklistItems = consoleSchema.table(
  "review_checklist_items",
  {
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    applicationId: text("application_id").notNull(),
    item: text("item").notNull(),
    mark: text("mark", { enum: ["verified", "discrepancy", "not_applicable"] }).notNull(),
    note: text("note"),
    markedById: text("marked_by_id").notNull(),
    markedByEmail: text("marked_by_email").notNull(),
    markedAt: moment("marked_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.environment, table.applicationId, table.item] })],
);

/** A case's notes: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE; the console's role may only insert). */
export const reviewNotes = consoleSchema.table(
  "review_notes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    applicationId: text("application_id").notNull(),
    authorId: text("author_id").notNull(),
    authorEmail: text("author_email").notNull(),
    at: moment("at").notNull().defaultNow(),
    text: text("text").notNull(),
  },
  (table) => [index("review_notes_case_idx").on(table.environment, table.applicationId, table.id)],
);

/**
 * Proposed decisions and their second review: `proposed` until a different staff member confirms it (`confirmed`) or
 * sends it back (`returned`). At most one `proposed` per case; the database refuses a resolver who is the proposer.
 */
export const reviewDecisions = consoleSchema.table(
  "review_decisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    applicationId: text("application_id").notNull(),
    decision: text("decision", { enum: ["approve", "decline", "request_information"] }).notNull(),
    reasonCode: text("reason_code").notNull(),
    note: text("note").notNull(),
    state: text("state", { enum: ["proposed", "confirmed", "returned"] })
      .notNull()
      .default("proposed"),
    proposedById: text("proposed_by_id").notNull(),
    proposedByEmail: text("proposed_by_email").notNull(),
    proposedAt: moment("proposed_at").notNull().defaultNow(),
    resolvedById: text("resolved_by_id"),
    resolvedByEmail: text("resolved_by_email"),
    resolvedAt: moment("resolved_at"),
    resolutionNote: text("resolution_note"),
  },
  (table) => [
    uniqueIndex("review_decisions_one_proposed")
      .on(table.environment, table.applicationId)
      .where(sql`${table.state} = 'proposed'`),
    index("review_decisions_case_idx").on(table.environment, table.applicationId, table.id),
    check("review_decisions_four_eyes", sql`${table.resolvedById} IS NULL OR ${table.resolvedById} <> ${table.proposedById}`),
  ],
);

/**
 * One search document per indexed object, from its latest state (lib/search/document.ts), written in the same
 * transaction as the object (lib/index/store.ts). The text is split by who may match it; the full-text and trigram
 * indexes on each are expressions in migration 0012_index_search.sql (docs/search.md).
 */
export const bankSearch = consoleSchema.table(
  "bank_search",
  {
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    id: text("id").notNull(),
    resource: text("resource").notNull(),
    /** Fields every role sees in full (and the visible last four of account numbers). */
    publicText: text("public_text").notNull(),
    /** userdata keys and values: roles that may edit userdata or reveal personal data. */
    userdataText: text("userdata_text").notNull(),
    /** Fields masked, fully or partly, for viewers: roles holding `pii:reveal` only. */
    personalText: text("personal_text").notNull(),
    /** The object's `amount` in cents, when it has one. */
    amountCents: bigint("amount_cents", { mode: "number" }),
    /** Full-text vectors of the three texts, stored so a search reads them instead of parsing every row it visits. */
    publicVector: textSearchVector("public_tsv").generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, public_text)`),
    userdataVector: textSearchVector("userdata_tsv").generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, userdata_text)`),
    personalVector: textSearchVector("personal_tsv").generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, personal_text)`),
  },
  (table) => [primaryKey({ columns: [table.environment, table.id] })],
);

/**
 * Four-eyes on changes (docs/approvals.md): per environment, whether every change the console sends to the bank and
 * every change of bank credentials waits for a second person. No row: the default (sandbox off, production on).
 */
export const changeApprovalSettings = consoleSchema.table("change_approval_settings", {
  environment: text("environment", { enum: ["sandbox", "production"] }).primaryKey(),
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
    environment: text("environment", { enum: ["sandbox", "production"] }).notNull(),
    kind: text("kind", { enum: ["bank", "credentials"] }).notNull(),
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

/**
 * A saved view of a list (lib/views/): its filters (the list URL's query, without paging) and visible columns, under
 * a name, personal to its owner or shared with every staff member. Migration 0017_saved_views.sql also holds the
 * name's length check and the owner/list/lower(name) unique index.
 */
export const savedViews = consoleSchema.table(
  "saved_views",
  {
    id: text("id").primaryKey(),
    resource: text("resource").notNull(),
    name: text("name").notNull(),
    ownerId: text("owner_id").notNull(),
    ownerEmail: text("owner_email").notNull(),
    shared: boolean("shared").notNull().default(false),
    query: jsonb("query").$type<Record<string, string>>().notNull(),
    columns: jsonb("columns").$type<Record<string, boolean>>().notNull(),
    createdAt: moment("created_at").notNull().defaultNow(),
  },
  (table) => [index("saved_views_resource_idx").on(table.resource, table.shared)],
);
