import path from "node:path";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { applyMigrations, connectDatabase, type Database } from "@/lib/db/connect";
import * as schema from "./schema";

export { schema };
export type SandboxDatabase = Database<typeof schema>;
/** A drizzle handle: the database itself or a transaction on it (both run queries the same way). */
export type SandboxDb = NodePgDatabase<typeof schema>;

/** Connects to the sandbox bank's database and applies its committed migrations. */
export async function openSandboxDatabase(url: string): Promise<SandboxDatabase> {
  // Rows are rendered from PostgreSQL's text output (sandbox/http/format.ts): UTC keeps timestamps on the fast path.
  const database = connectDatabase(url, schema, { max: 10, timeZone: "UTC" });
  await applyMigrations(database, path.resolve(import.meta.dirname, "../../drizzle/sandbox"), "sandbox");
  return database;
}
