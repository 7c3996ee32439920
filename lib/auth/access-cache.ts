import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";

/**
 * A per-process cache of what every request needs to decide access (the signed-in staff user, the bank client built
 * from the saved credentials), invalidated through the database rather than by a timeout: `console.access_version`
 * holds a number that triggers raise in the same transaction as any change to staff users or saved credentials
 * (drizzle/console/0006_access_version.sql). Before answering from the cache, a request reads that number once; when
 * it moved, everything cached is dropped and loaded again. So a lock, a removal, a role change or new credentials
 * apply to the very next request, in every console process sharing the database. See docs/access-cache.md.
 */
export interface AccessCache {
  /** The value of `key`, loaded by `load` when absent or when the access version moved since it was loaded. */
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /**
   * Runs `handle` as one request: its lookups share one version read, started after the request began (so it sees
   * every change committed before), and concurrent requests that began before that read started share it too.
   */
  request<T>(handle: () => Promise<T>): Promise<T>;
}

export function createAccessCache(readVersion: () => Promise<number>): AccessCache {
  const requestStart = new AsyncLocalStorage<number>();
  let latestRead: { startedAt: number; version: Promise<number> } | undefined;
  let entriesVersion: number | undefined;
  let entries = new Map<string, Promise<unknown>>();

  function currentVersion(): Promise<number> {
    // Outside a request scope (pages, server actions) every lookup reads the version afresh.
    const since = requestStart.getStore() ?? Number.POSITIVE_INFINITY;
    if (latestRead && latestRead.startedAt > since) return latestRead.version;
    const read = { startedAt: performance.now(), version: readVersion() };
    latestRead = read;
    read.version.catch(() => {
      if (latestRead === read) latestRead = undefined;
    });
    return read.version;
  }

  return {
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const version = await currentVersion();
      // Any change (even a flip back to an older read finishing late) drops everything: entries are always loaded
      // after the read that tags them, so they are never older than their tag.
      if (version !== entriesVersion) {
        entries = new Map();
        entriesVersion = version;
      }
      let entry = entries.get(key) as Promise<T> | undefined;
      if (!entry) {
        const loading = load();
        const owner = entries;
        owner.set(key, loading);
        // A failed load is not remembered: the next request tries again.
        loading.catch(() => {
          if (owner.get(key) === loading) owner.delete(key);
        });
        entry = loading;
      }
      return entry;
    },
    request(handle) {
      return requestStart.run(performance.now(), handle);
    },
  };
}

const versionQuery = { text: "SELECT version FROM console.access_version", rowMode: "array" } as const;

/** The current access version (a bigint, read as text by the console's pool). */
export async function readAccessVersion(client: Pick<pg.Pool, "query">): Promise<number> {
  const { rows } = await client.query<[string]>(versionQuery);
  if (!rows[0]) throw new Error("console.access_version has no row: the console's migrations are incomplete");
  return Number(rows[0][0]);
}

export interface VersionReader {
  read(): Promise<number>;
  /** Gives the held connection back to the pool (a pool does not end while a connection is checked out). */
  release(): void;
}

interface HeldConnection {
  client: pg.PoolClient;
  /** Gives the connection back to the pool to be destroyed; the next read holds a fresh one. */
  drop(error: Error): void;
}

/**
 * Reads the access version on one connection of `pool` kept for it: checking a connection out of the pool and back
 * for every request cost more CPU than the one-row read itself (docs/benchmarks.md). A connection that fails (a
 * query error, or the server closing it while idle) is closed and the next read takes a fresh one, so a database
 * restart costs the reads in flight, never a stuck reader or an unhandled error.
 */
export function heldConnectionVersionReader(pool: pg.Pool): VersionReader {
  let held: Promise<HeldConnection> | undefined;

  function hold(): Promise<HeldConnection> {
    const connecting = pool.connect().then((client) => {
      let dropped = false;
      const drop = (error: Error) => {
        if (dropped) return;
        dropped = true;
        if (held === connecting) held = undefined;
        // Released with the error, the pool destroys the connection instead of reusing it.
        client.release(error);
      };
      // A checked-out client has no error listener of the pool's: without this one, a lost connection would crash.
      client.on("error", drop);
      return { client, drop };
    });
    connecting.catch(() => {
      if (held === connecting) held = undefined;
    });
    return connecting;
  }

  async function send(): Promise<number> {
    const { client, drop } = await (held ??= hold());
    try {
      return await readAccessVersion(client);
    } catch (error) {
      drop(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  // One query at a time on the connection: a read asked for while one is in flight waits for it, and every read
  // asked for meanwhile shares that next one, which is sent after all of them were asked (so it sees what they must).
  let inFlight: Promise<number> | undefined;
  let next: Promise<number> | undefined;
  function start(): Promise<number> {
    const read = send();
    inFlight = read;
    const settled = () => {
      if (inFlight === read) inFlight = undefined;
    };
    read.then(settled, settled);
    return read;
  }

  return {
    read() {
      if (next) return next;
      if (!inFlight) return start();
      const waitFor = inFlight;
      const queued = waitFor
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          next = undefined;
          return start();
        });
      next = queued;
      return queued;
    },
    release() {
      void held?.then(
        ({ drop }) => drop(new Error("the version reader was released")),
        () => {},
      );
    },
  };
}
