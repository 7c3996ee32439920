import "server-only";
import path from "node:path";
import { heldConnectionVersionReader } from "@/lib/auth/access-cache";
import { accessVersionChannel, notifiedVersionReader, type NotifiedVersionReader } from "@/lib/auth/notified-version-reader";
import { seedDemoUsers } from "@/lib/auth/staff-users";
import { env } from "@/lib/env/console";
import { applyMigrations, connectDatabase, type Database } from "./connect";
import * as schema from "./console-schema";
import { startEmbeddedPostgres } from "./embedded";
import { grantConsoleRuntime, roleOf } from "./roles";

export type ConsoleDatabase = Database<typeof schema> & {
  /** The access version every request's cached access decisions are checked against (lib/auth/access-cache.ts). */
  accessVersion: NotifiedVersionReader;
};

/**
 * Kept on globalThis: Next.js bundles instrumentation.ts (which starts the index of the bank) apart from the route
 * handlers, each with its own copy of this module, and one process must still open one pool per database, not one
 * per bundle. Keyed by the configured database, which is read once per copy of the module.
 */
const shared = ((globalThis as { __consoleDatabases?: Map<string, Promise<ConsoleDatabase>> }).__consoleDatabases ??= new Map());

/** The console's database, opened, migrated and (demo users on) seeded on first use, one per server process. */
export function consoleDb(): Promise<ConsoleDatabase> {
  const key = env.DATABASE_URL ?? `embedded:${env.DATA_ROOT}:${env.PORT}`;
  let opening = shared.get(key);
  if (!opening) {
    opening = open().catch((error: unknown) => {
      shared.delete(key); // let the next request try again instead of failing forever
      throw error;
    });
    shared.set(key, opening);
  }
  return opening;
}

async function open(): Promise<ConsoleDatabase> {
  const url = env.DATABASE_URL ?? (await startEmbeddedPostgres({ dataDir: path.join(env.DATA_ROOT, `console-${env.PORT}`) })).url;
  const migrations = path.join(process.cwd(), "drizzle/console");
  if (env.DATABASE_MIGRATION_URL && env.DATABASE_MIGRATE_AT_START === "on") {
    if (!env.DATABASE_URL) throw new Error("DATABASE_MIGRATION_URL is set without DATABASE_URL: set the console's own role's URL too");
    // The owner migrates, then hands the console's role only what it needs (lib/db/roles.ts).
    const owner = connectDatabase(env.DATABASE_MIGRATION_URL, schema, { max: 1 });
    await applyMigrations(owner, migrations, "console").finally(() => owner.close());
    await grantConsoleRuntime(env.DATABASE_MIGRATION_URL, roleOf(env.DATABASE_URL));
  }
  const database = withAccessVersion(url);
  if (!env.DATABASE_MIGRATION_URL && env.DATABASE_MIGRATE_AT_START === "on") await applyMigrations(database, migrations, "console");
  if (env.CONSOLE_DEMO_USERS === "on") await seedDemoUsers(database.db);
  return database;
}

/**
 * The runtime pool with its access-version reader (lib/auth/access-cache.ts): every connection listens for changes,
 * so the version is read only after one (lib/auth/notified-version-reader.ts), on PostgreSQL and on the embedded
 * PGlite alike (lib/db/embedded.ts passes notifications on as a server does). A database that does not deliver them
 * gets a read per request: the reader checks that it hears its own probe before relying on them.
 */
function withAccessVersion(url: string): ConsoleDatabase {
  // The pool opens connections only when asked, after `reader` exists.
  const database = connectDatabase(url, schema, {
    listen: { channel: accessVersionChannel, heard: () => reader.heard(), failed: () => reader.failed() },
  });
  const reader = notifiedVersionReader(database.pool, heldConnectionVersionReader(database.pool));
  return {
    ...database,
    accessVersion: reader,
    // The reader's connections are given back first: a pool does not end while one is checked out.
    close: async () => {
      reader.release();
      await database.close();
    },
  };
}
