import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgSchema, text, timestamp } from "drizzle-orm/pg-core";

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
