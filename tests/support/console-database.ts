import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { applyMigrations, connectDatabase, type Database } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import type { TestDatabaseTarget } from "./databases";

export type ConsoleTestDatabase = Database<typeof schema>;

/**
 * A fresh console database on `target` for the enclosing `describe`, with the committed migrations applied, and
 * removed afterwards. The returned object is filled in `beforeAll`, so tests use it as the database itself.
 */
export function migratedConsoleDatabase(target: TestDatabaseTarget): ConsoleTestDatabase {
  const database = {} as ConsoleTestDatabase;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    Object.assign(database, connectDatabase(created.url, schema));
    await applyMigrations(database, consoleMigrations, "console");
  });
  afterAll(async () => {
    await database.close?.();
    await drop?.();
  });
  return database;
}

export const consoleMigrations = path.resolve("drizzle/console");
