import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "./embedded";

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * An empty database for a test, a benchmark or a timing run: a new PGlite, or, given the URL of a PostgreSQL server, a
 * new database `name` on it (an existing one of that name is dropped first). `drop()` removes it. PGlite keeps its data
 * in memory unless `onDisk`, which puts it in a temporary directory as the console's own embedded store is kept: a
 * benchmark's million objects held 15 GB in memory, and counting.
 */
export async function createScratchDatabase(
  postgresUrl: string | undefined,
  name: string,
  { onDisk = false }: { onDisk?: boolean } = {},
): Promise<ScratchDatabase> {
  if (!postgresUrl) {
    const dataDir = onDisk ? mkdtempSync(path.join(tmpdir(), "scratch-pglite-")) : undefined;
    const embedded = await startEmbeddedPostgres({ dataDir });
    return {
      url: embedded.url,
      drop: async () => {
        await embedded.close();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      },
    };
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
