import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, text } from "drizzle-orm/pg-core";
import { consoleSchema, moment } from "./base";

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
  /**
   * Who created the account and who last changed its role (staff ids; null for the seed and single sign-on): the
   * account never approves or confirms what they asked for (lib/approvals/independence.ts).
   */
  createdBy: text("created_by"),
  roleChangedBy: text("role_changed_by"),
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
    /** When the session was last used, recorded at most once a minute (the idle timeout, lib/auth/sessions.ts). */
    lastSeenAt: moment("last_seen_at").notNull().defaultNow(),
    /** What an admin sees in Staff to tell sessions apart. */
    userAgent: text("user_agent"),
    address: text("address"),
  },
  (table) => [index("staff_sessions_user_idx").on(table.userId), index("staff_sessions_expires_idx").on(table.expiresAt)],
);

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
