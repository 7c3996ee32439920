import pg from "pg";
import { startEmbeddedPostgres } from "./embedded";

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * An empty database for a test, a benchmark or a timing run: a new in-memory PGlite, or, given the URL of a
 * PostgreSQL server, a new database `name` on it (an existing one of that name is dropped first). `drop()` removes it.
 */
export async function createScratchDatabase(postgresUrl: string | undefined, name: string): Promise<ScratchDatabase> {
  if (!postgresUrl) {
    const embedded = await startEmbeddedPostgres({});
    return { url: embedded.url, drop: () => embedded.close() };
  }
  const administer = async (statement: string) => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await administer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await administer(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => administer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
