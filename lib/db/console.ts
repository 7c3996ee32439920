import "server-only";
import path from "node:path";
import { heldConnectionVersionReader, type VersionReader } from "@/lib/auth/access-cache";
import { accessVersionChannel, notifiedVersionReader } from "@/lib/auth/notified-version-reader";
import { seedDemoUsers } from "@/lib/auth/staff-users";
import { env } from "@/lib/env/console";
import { applyMigrations, connectDatabase, type Database } from "./connect";
import * as schema from "./console-schema";
import { startEmbeddedPostgres } from "./embedded";
import { isPglite } from "./pglite";
import { grantConsoleRuntime, roleOf } from "./roles";

export type ConsoleDatabase = Database<typeof schema> & {
  /** The access version every request's cached access decisions are checked against (lib/auth/access-cache.ts). */
  accessVersion: VersionReader;
};

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
  const database = await withAccessVersion(url);
  if (!env.DATABASE_MIGRATION_URL) await applyMigrations(database, migrations, "console");
  if (env.CONSOLE_DEMO_USERS === "on") await seedDemoUsers(database.db);
  return database;
}

/**
 * The runtime pool with its access-version reader (lib/auth/access-cache.ts): on PostgreSQL every connection listens
 * for changes, so the version is read only after one (lib/auth/notified-version-reader.ts); on PGlite, whose one
 * session answers every connection, notifications cannot be told apart, and the version is read on every request.
 */
async function withAccessVersion(url: string): Promise<ConsoleDatabase> {
  if (await isPglite(url)) {
    const database = connectDatabase(url, schema);
    return withReader(database, heldConnectionVersionReader(database.pool));
  }
  // The pool opens connections only when asked, after `reader` exists.
  const database = connectDatabase(url, schema, {
    listen: { channel: accessVersionChannel, heard: () => reader.heard(), failed: () => reader.failed() },
  });
  const reader = notifiedVersionReader(database.pool, heldConnectionVersionReader(database.pool));
  return withReader(database, reader);
}

/** The reader's connections are given back before the pool ends (a pool does not end while one is checked out). */
function withReader(database: Database<typeof schema>, accessVersion: VersionReader): ConsoleDatabase {
  return {
    ...database,
    accessVersion,
    close: async () => {
      accessVersion.release();
      await database.close();
    },
  };
}
