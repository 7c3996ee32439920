import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
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
  const socketPath = path.join(socketDir, ".s.PGSQL.5432");
  await removeStaleSocket(socketPath);
  const pgDataDir = options.dataDir ? path.resolve(options.dataDir, "pgdata") : undefined;
  const db = await PGlite.create(pgDataDir);
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 32 });
  scheduleWholeQueries(server, db);
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

/**
 * A process killed without closing leaves its socket file behind, and listening on that path again fails
 * (EADDRINUSE). Removes the file when nothing answers on it; refuses to start while another process still serves
 * the same data directory (PGlite must never open one directory from two processes).
 */
async function removeStaleSocket(socketPath: string): Promise<void> {
  if (!existsSync(socketPath)) return;
  const served = await new Promise<boolean>((resolve) => {
    const probe = connect(socketPath);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (served) {
    throw new Error(`Another process serves the embedded database at ${path.dirname(path.dirname(socketPath))}; stop it first`);
  }
  rmSync(socketPath, { force: true });
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}
interface SocketQueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/** Parse, Bind, Describe, Execute, Close, Flush: messages of an extended-protocol query that its Sync ends. */
const extendedQueryMessages = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);

/**
 * pglite-socket 0.2.x queues single protocol messages, pinning a connection only inside a transaction. Outside one,
 * two connections' Parse/Bind/Execute/Sync sequences interleave on PGlite's one session and clobber each other's
 * unnamed statement ("bind message supplies 3 parameters, but prepared statement "" requires 2"), and a message
 * that throws stops its queue for good (electric-sql/pglite#1046, open). This replaces the queue's scheduler: a
 * connection keeps the session from its first extended-protocol message to its Sync, and while in a transaction.
 */
function scheduleWholeQueries(server: PGLiteSocketServer, db: PGlite) {
  const queue = (server as unknown as { queryQueue?: SocketQueryQueue }).queryQueue;
  if (!queue || !Array.isArray(queue.queue) || typeof queue.clearQueueForHandler !== "function") {
    throw new Error("@electric-sql/pglite-socket changed its query queue: review scheduleWholeQueries in lib/db/embedded.ts");
  }
  let midQuery: number | null = null;
  queue.processQueue = async function processQueue(this: SocketQueryQueue) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = midQuery ?? (db.isInTransaction() ? this.lastHandlerId : null);
        const index = owner === null ? 0 : this.queue.findIndex((entry) => entry.handlerId === owner);
        if (index === -1) break; // the owner's next message restarts the queue when it arrives
        const entry = this.queue.splice(index, 1)[0]!;
        let bytes = 0;
        try {
          await db.runExclusive(() =>
            db.execProtocolRawStream(entry.message, {
              onRawData: (data) => {
                bytes += data.length;
                entry.onData(data);
              },
            }),
          );
          entry.resolve(bytes);
        } catch (error) {
          entry.reject(error);
        }
        this.lastHandlerId = entry.handlerId;
        midQuery = extendedQueryMessages.has(entry.message[0] ?? 0) ? entry.handlerId : null;
      }
    } finally {
      this.processing = false;
    }
  };
  const clearQueueForHandler = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId) => {
    clearQueueForHandler(handlerId);
    if (midQuery !== handlerId) return;
    midQuery = null; // a connection that left mid-query must not hold the session
    void queue.processQueue();
  };
}
