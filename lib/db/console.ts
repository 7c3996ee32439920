import "server-only";
import path from "node:path";
import { seedDemoUsers } from "@/lib/auth/staff-users";
import { env } from "@/lib/env/console";
import { applyMigrations, connectDatabase, type Database } from "./connect";
import * as schema from "./console-schema";
import { startEmbeddedPostgres } from "./embedded";

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
  const database = connectDatabase(url, schema);
  await applyMigrations(database, path.join(process.cwd(), "drizzle/console"), "console");
  if (env.CONSOLE_DEMO_USERS === "on") await seedDemoUsers(database.db);
  return database;
}
