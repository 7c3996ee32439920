import "server-only";
import path from "node:path";
import { seedDemoUsers } from "@/lib/auth/staff-users";
import { env } from "@/lib/env/console";
import { applyMigrations, connectDatabase, type Database } from "./connect";
import * as schema from "./console-schema";
import { startEmbeddedPostgres } from "./embedded";
import { grantConsoleRuntime, roleOf } from "./roles";

export type ConsoleDatabase = Database<typeof schema>;

let opening: Promise<ConsoleDatabase> | undefined;

/** The console's database, opened, migrated and (demo users on) seeded on first use, one per server process. */
export function consoleDb(): Promise<ConsoleDatabase> {
  opening ??= open().catch((error: unknown) => {
    opening = undefined; // let the next request try again instead of failing forever
    throw error;
  });
  return opening;
}

async function open(): Promise<ConsoleDatabase> {
  const url = env.DATABASE_URL ?? (await startEmbeddedPostgres({ dataDir: path.join(env.DATA_ROOT, `console-${env.PORT}`) })).url;
  const migrations = path.join(process.cwd(), "drizzle/console");
  if (env.DATABASE_MIGRATION_URL) {
    if (!env.DATABASE_URL) throw new Error("DATABASE_MIGRATION_URL is set without DATABASE_URL: set the console's own role's URL too");
    // The owner migrates, then hands the console's role only what it needs (lib/db/roles.ts).
    const owner = connectDatabase(env.DATABASE_MIGRATION_URL, schema, { max: 1 });
    await applyMigrations(owner, migrations, "console").finally(() => owner.close());
    await grantConsoleRuntime(env.DATABASE_MIGRATION_URL, roleOf(env.DATABASE_URL));
  }
  const database = connectDatabase(url, schema);
  if (!env.DATABASE_MIGRATION_URL) await applyMigrations(database, migrations, "console");
  if (env.CONSOLE_DEMO_USERS === "on") await seedDemoUsers(database.db);
  return database;
}
