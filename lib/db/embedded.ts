import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface EmbeddedPostgres {
  /** A node-postgres connection string for the embedded server (a Unix socket, so no TCP port is taken). */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly) and serves it on a Unix socket, so that every part of the
 * project talks to the embedded database and to a real PostgreSQL server through the same driver (`pg`).
 * One PGlite instance costs ~500-800 MB, so a process that needs two databases shares one instance between
 * schemas rather than starting a second one. `dataDir` undefined keeps the data in memory.
 */
export async function startEmbeddedPostgres(options: { dataDir?: string }): Promise<EmbeddedPostgres> {
  const socketDir = options.dataDir
    ? path.resolve(options.dataDir, "socket")
    : mkdtempSync(path.join(tmpdir(), "bank-pg-"));
  mkdirSync(socketDir, { recursive: true });
  const pgDataDir = options.dataDir ? path.resolve(options.dataDir, "pgdata") : undefined;
  const db = await PGlite.create(pgDataDir);
  const server = new PGLiteSocketServer({ db, path: path.join(socketDir, ".s.PGSQL.5432"), maxConnections: 32 });
  await server.start();
  return {
    url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    async close() {
      await server.stop();
      await db.close();
      if (!options.dataDir) rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
