import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
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
export async function startEmbeddedPostgres(options: { dataDir?: string; checkpoints?: CheckpointPolicy }): Promise<EmbeddedPostgres> {
  const socketDir = options.dataDir ? path.resolve(options.dataDir, "socket") : mkdtempSync(path.join(tmpdir(), "bank-pg-"));
  mkdirSync(socketDir, { recursive: true });
  const socketPath = path.join(socketDir, ".s.PGSQL.5432");
  await removeStaleSocket(socketPath);
  const pgDataDir = options.dataDir ? path.resolve(options.dataDir, "pgdata") : undefined;
  // pg_trgm is loaded for the search over the index of the bank (docs/search.md); CREATE EXTENSION is in its migration.
  const db = await PGlite.create(pgDataDir, { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 32 });
  const checkpoints = scheduleWholeQueries(server, db, options.checkpoints ?? serverCheckpoints);
  await server.start();
  return {
    url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    async close() {
      checkpoints.stop();
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

/**
 * When the scheduler checkpoints (scheduleWholeQueries): a server's checkpointer checkpoints every `checkpoint_timeout`
 * (5 min) or once `max_wal_size` (1 GB) of WAL is written; PGlite has no such process.
 */
export interface CheckpointPolicy {
  /** How often the WAL written since the last checkpoint is looked at. */
  checkEveryMs: number;
  /** Checkpoint once this much WAL is written since the last one... */
  walBytes: number;
  /** ...or once the last one is this old and anything was written since. */
  maxAgeMs: number;
}

const serverCheckpoints: CheckpointPolicy = { checkEveryMs: 30_000, walBytes: 256 * 1024 * 1024, maxAgeMs: 5 * 60_000 };

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
const simpleQueryMessage = 0x51;
const notificationResponse = 0x41;

/**
 * Collects the whole NotificationResponse messages of one query's output, fed chunk by chunk as PGlite streams it
 * (a message may span chunks; everything else is skipped by its length without being copied).
 */
function notificationCollector() {
  const header = new Uint8Array(5);
  let headerBytes = 0;
  let remaining = 0;
  let message: Uint8Array | null = null;
  let filled = 0;
  const found: Uint8Array[] = [];
  return {
    found,
    feed(data: Uint8Array) {
      let at = 0;
      while (at < data.length) {
        if (remaining === 0) {
          header[headerBytes++] = data[at++]!;
          if (headerBytes < 5) continue;
          headerBytes = 0;
          // The length counts itself (4 bytes) and the body, not the type byte.
          const length = ((header[1]! << 24) | (header[2]! << 16) | (header[3]! << 8) | header[4]!) >>> 0;
          remaining = Math.max(length - 4, 0);
          if (header[0] === notificationResponse) {
            message = new Uint8Array(1 + length);
            message.set(header);
            filled = 5;
          }
        } else {
          const take = Math.min(remaining, data.length - at);
          if (message) message.set(data.subarray(at, at + take), filled);
          filled += take;
          at += take;
          remaining -= take;
        }
        if (remaining === 0 && message && filled === message.length) {
          found.push(message);
          message = null;
        }
      }
    },
  };
}

/** A channel as PostgreSQL names it: a quoted identifier as written, any other folded to lower case. */
function channelName(identifier: string): string {
  return identifier.startsWith('"') ? identifier.slice(1, -1).replaceAll('""', '"') : identifier.toLowerCase();
}

/** `LISTEN <channel>` or `UNLISTEN <channel | *>` sent as a simple query, else null. */
function listenCommand(message: Uint8Array): { command: "listen" | "unlisten"; channel: string } | null {
  if (message[0] !== simpleQueryMessage) return null;
  const text = Buffer.from(message.subarray(5, Math.min(message.length - 1, 5 + 200))).toString("utf8");
  const match = /^\s*(UN)?LISTEN\s+("(?:[^"]|"")+"|\*|[^\s;]+)\s*;?\s*$/i.exec(text);
  if (!match) return null;
  return { command: match[1] ? "unlisten" : "listen", channel: match[2] === "*" ? "*" : channelName(match[2]!) };
}

/** The channel a NotificationResponse is for (after its type, length and the notifying process id). */
function notificationChannel(message: Uint8Array): string {
  const end = message.indexOf(0, 9);
  return Buffer.from(message.subarray(9, end < 0 ? message.length : end)).toString("utf8");
}

const quoted = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

/**
 * pglite-socket 0.2.x queues single protocol messages, pinning a connection only inside a transaction. Outside one,
 * two connections' Parse/Bind/Execute/Sync sequences interleave on PGlite's one session and clobber each other's
 * unnamed statement ("bind message supplies 3 parameters, but prepared statement "" requires 2"), and a message
 * that throws stops its queue for good (electric-sql/pglite#1046, open). This replaces the queue's scheduler: a
 * connection keeps the session from its first extended-protocol message to its Sync, and while in a transaction.
 *
 * It also passes notifications on. All connections share PGlite's one session, so PostgreSQL sends a notification only
 * to the connection whose query committed it; on a server, every session that ran LISTEN gets it. So after each query,
 * the NotificationResponse messages in its output are written to every other connection that listens on their channel
 * (a simple `LISTEN ...` query), as a server would: between whole queries, when no other connection's answer is
 * half-written. One connection's UNLISTEN would end the shared session's listening for all, so the channels the others
 * still listen on are listened to again at once. The console relies on this to hear another process's access changes
 * (lib/auth/notified-version-reader.ts).
 */
function scheduleWholeQueries(server: PGLiteSocketServer, db: PGlite, policy: CheckpointPolicy): { stop(): void } {
  const queue = (server as unknown as { queryQueue?: SocketQueryQueue }).queryQueue;
  if (!queue || !Array.isArray(queue.queue) || typeof queue.clearQueueForHandler !== "function") {
    throw new Error("@electric-sql/pglite-socket changed its query queue: review scheduleWholeQueries in lib/db/embedded.ts");
  }
  let midQuery: number | null = null;
  /** Connections that ran LISTEN, by handler: their channels and how to write to them. */
  const listeners = new Map<number, { channels: Set<string>; write(data: Uint8Array): void }>();
  const passOn = (notifications: Uint8Array[], from: number) => {
    for (const notification of notifications) {
      const channel = notificationChannel(notification);
      for (const [handlerId, listener] of listeners) {
        // The connection whose query sent it got it in its own answer.
        if (handlerId !== from && listener.channels.has(channel)) listener.write(notification);
      }
    }
  };
  const track = (handlerId: number, write: (data: Uint8Array) => void, change: { command: "listen" | "unlisten"; channel: string }) => {
    const listener = listeners.get(handlerId) ?? { channels: new Set<string>(), write };
    if (change.command === "listen") listener.channels.add(change.channel);
    else if (change.channel === "*") listener.channels.clear();
    else listener.channels.delete(change.channel);
    if (listener.channels.size > 0) listeners.set(handlerId, listener);
    else listeners.delete(handlerId);
  };
  const stillListened = () => new Set([...listeners.values()].flatMap((listener) => [...listener.channels]));
  const checkpoint = checkpointWhenDue(db, policy);
  queue.processQueue = async function processQueue(this: SocketQueryQueue) {
    if (this.processing) return;
    this.processing = true;
    try {
      for (;;) {
        // Between whole queries only: a statement of its own would drop a connection's unnamed one mid-sequence.
        if (midQuery === null && !db.isInTransaction()) await checkpoint.ifDue();
        if (this.queue.length === 0) break;
        const owner = midQuery ?? (db.isInTransaction() ? this.lastHandlerId : null);
        const index = owner === null ? 0 : this.queue.findIndex((entry) => entry.handlerId === owner);
        if (index === -1) break; // the owner's next message restarts the queue when it arrives
        const entry = this.queue.splice(index, 1)[0]!;
        const change = listenCommand(entry.message);
        if (change) track(entry.handlerId, entry.onData, change);
        const notifications = listeners.size > 0 ? notificationCollector() : null;
        let bytes = 0;
        try {
          await db.runExclusive(() =>
            db.execProtocolRawStream(entry.message, {
              onRawData: (data) => {
                bytes += data.length;
                notifications?.feed(data);
                entry.onData(data);
              },
            }),
          );
          entry.resolve(bytes);
        } catch (error) {
          entry.reject(error);
        }
        if (notifications && notifications.found.length > 0) passOn(notifications.found, entry.handlerId);
        if (change?.command === "unlisten") {
          // Fails only when the UNLISTEN did too (a transaction already aborted): then nothing stopped listening.
          for (const channel of stillListened()) await db.exec(`LISTEN ${quoted(channel)}`).catch(() => {});
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
    listeners.delete(handlerId);
    clearQueueForHandler(handlerId);
    if (midQuery !== handlerId) return;
    midQuery = null; // a connection that left mid-query must not hold the session
    void queue.processQueue();
  };
  const timer = setInterval(() => {
    checkpoint.due = true;
    void queue.processQueue(); // an idle queue checks at once; a busy one at its next whole query
  }, policy.checkEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * PGlite is PostgreSQL's single backend without the server's background processes, so nothing checkpoints while it
 * runs: a million-object backfill of the index had written 7 GB of WAL behind the checkpoint taken at start (in
 * memory, all of it held in memory), and a crash replays everything since that checkpoint at the next start. This
 * does the checkpointer's part on the same terms (CheckpointPolicy); a checkpoint recycles the WAL behind it.
 */
function checkpointWhenDue(db: PGlite, policy: CheckpointPolicy) {
  const state = {
    due: false,
    async ifDue() {
      if (!state.due) return;
      state.due = false;
      try {
        const { rows } = await db.query<{ written: string; age_ms: number }>(
          `SELECT (pg_current_wal_insert_lsn() - redo_lsn)::text AS written,
             extract(epoch FROM now() - checkpoint_time) * 1000 AS age_ms
           FROM pg_control_checkpoint()`,
        );
        const written = Number(rows[0]?.written ?? 0);
        const ageMs = Number(rows[0]?.age_ms ?? 0);
        // Checkpointing writes a little WAL of its own: under a page of it is not a change to keep up with.
        if (written >= policy.walBytes || (ageMs >= policy.maxAgeMs && written > 8192)) await db.exec("CHECKPOINT");
      } catch {
        // Looked at again at the next tick; a database closing under the timer has nothing left to keep.
      }
    },
  };
  return state;
}
