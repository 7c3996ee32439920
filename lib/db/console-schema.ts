import { boolean, pgSchema, text, timestamp } from "drizzle-orm/pg-core";

/** The console's own tables live in the `console` schema, apart from the sandbox bank's. */
export const consoleSchema = pgSchema("console");

export const staffUsers = consoleSchema.table("staff_users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  role: text("role", { enum: ["admin", "operations", "compliance", "viewer"] }).notNull(),
  passwordHash: text("password_hash"),
  locked: boolean("locked").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
