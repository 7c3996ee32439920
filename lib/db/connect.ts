import pg from "pg";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { traceDatabaseQueries } from "@/lib/telemetry/database-spans";

// Return timestamps and numerics as strings: money and times are formatted by our own code, never via floats.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export interface Database<TSchema extends Record<string, unknown>> {
  db: NodePgDatabase<TSchema>;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function connectDatabase<TSchema extends Record<string, unknown>>(
  url: string,
  schema: TSchema,
  options: {
    max?: number;
    timeZone?: string;
    /**
     * Every connection listens on `channel` from its start, before any other query of it, and reports what it hears;
     * `failed` is told when a connection could not listen.
     */
    listen?: { channel: string; heard(): void; failed(error: unknown): void };
  } = {},
): Database<TSchema> {
  const { listen } = options;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    // Set at connection start-up (PostgreSQL honours it; PGlite ignores it and is always UTC).
    ...(options.timeZone && { options: `-c TimeZone=${options.timeZone}` }),
    // Awaited by the pool before it hands the connection out, so the LISTEN precedes every query of the connection.
    ...(listen && {
      onConnect: async (client: pg.ClientBase) => {
        client.on("notification", (message) => {
          if (message.channel === listen.channel) listen.heard();
        });
        // A connection that cannot listen still serves queries; the caller stops relying on notifications.
        await client.query(`LISTEN ${listen.channel}`).catch((error: unknown) => listen.failed(error));
      },
    }),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  // A span per query made inside a trace (operation and table, never values); nothing more than a check otherwise.
  traceDatabaseQueries(pool);
  return { db: drizzle(pool, { schema }), pool, close: () => pool.end() };
}

/**
 * Applies the committed drizzle-kit migrations of one part of the project (`part` is "console" or "sandbox").
 * Each part keeps its tables in its own PostgreSQL schema and its own migration journal, so the console and the
 * sandbox bank can share one database without stepping on each other.
 */
export async function applyMigrations<T extends Record<string, unknown>>(database: Database<T>, folder: string, part: string) {
  await migrate(database.db, { migrationsFolder: folder, migrationsTable: `${part}_migrations` });
}
