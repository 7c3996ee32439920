import type pg from "pg";
import type { Environment } from "@/lib/credentials/environments";
import { can, type Role } from "@/lib/permissions";

/** The channel `console.announce_bank_index()` notifies at the commit of every batch of new versions. */
export const bankIndexChannel = "console_bank_index";

/** One new version in the index, as the live feed passes it on: what changed, never how (no state, no values). */
export interface LiveChange {
  /** The version row's id: its position in the feed. */
  id: number;
  environment: Environment;
  resource: string;
  objectId: string;
}

/**
 * What a subscriber is told, in order: the catch-up (`change` for every version after the id it started from, or a
 * `reset` when it was too far behind, or ahead after the index was rebuilt, to be caught up change by change: read
 * everything again), then `ready` with the newest id when it subscribed, then every later `change` as it commits.
 * Each change is told once.
 */
export type LiveMessage = { type: "change"; change: LiveChange } | { type: "reset"; latestId: number } | { type: "ready"; latestId: number };

export interface LiveSubscription {
  close(): void;
}

export interface LiveFeed {
  /**
   * Delivers to `deliver` every change after `after` (null: after the newest one now), first the catch-up read from
   * the database, then what the feed broadcasts, with no gap and no repeat between the two (see LiveMessage).
   */
  subscribe(after: number | null, deliver: (message: LiveMessage) => void): Promise<LiveSubscription>;
  /** Stops listening and polling; current subscribers get nothing more. */
  close(): void;
}

export interface LiveFeedOptions {
  /** A catch-up longer than this becomes a `reset`. */
  maxCatchUp?: number;
  /** Reads new versions at least this often, in case a notification was lost. */
  pollMs?: number;
  /** First wait before listening again on a lost connection; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

type Row = { id: string | number; environment: Environment; resource: string; object_id: string };

const changeOf = (row: Row): LiveChange => ({ id: Number(row.id), environment: row.environment, resource: row.resource, objectId: row.object_id });

const newestId = async (pool: pg.Pool) =>
  Number((await pool.query<{ id: string | null }>("SELECT max(id) AS id FROM console.bank_object_versions")).rows[0]?.id ?? 0);

const versionsBetween = async (pool: pg.Pool, after: number, upTo: number | null, limit: number) =>
  (
    await pool.query<Row>(
      `SELECT id, environment, resource, object_id FROM console.bank_object_versions
       WHERE id > $1 AND ($2::bigint IS NULL OR id <= $2) ORDER BY id LIMIT $3`,
      [after, upTo, limit],
    )
  ).rows.map(changeOf);

/** Whether `role` may be told of changes to `resource` at all (ids and kinds only, but still: only what it may read). */
export function mayWatch(role: Role, resource: string): boolean {
  return resource.length > 0 && can(role, "bank:read");
}

/**
 * The index's changes as they commit, for every subscriber of this process. One connection of `pool` listens on
 * `bankIndexChannel` (re-established with backoff when lost); each notification, and a slow poll as a safety net,
 * reads the versions after the last one read and broadcasts them. Version ids commit in increasing order
 * (lib/index/store.ts), so "every id after N" never skips one that commits late.
 */
export function startLiveFeed(pool: pg.Pool, options: LiveFeedOptions = {}): LiveFeed {
  const maxCatchUp = options.maxCatchUp ?? 1000;
  const pollMs = options.pollMs ?? 2000;
  const retryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  const subscribers = new Set<(changes: LiveChange[]) => void>();
  let closed = false;
  /** The last id read and broadcast; undefined until the first read sets it to the newest. */
  let cursor: number | undefined;
  let starting: Promise<void> | undefined;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  /** Ends the listening connection, if one is up. */
  let stopListening: (() => void) | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;

  /** Starts the feed at the newest version, before anyone subscribes: a subscriber's catch-up ends at or after it. */
  function start(): Promise<void> {
    starting ??= newestId(pool)
      .then((id) => {
        cursor ??= id;
      })
      .catch((error: unknown) => {
        starting = undefined;
        throw error;
      });
    return starting;
  }

  async function readNew(): Promise<void> {
    await start();
    do {
      readAgain = false;
      for (;;) {
        const changes = await versionsBetween(pool, cursor!, null, 500);
        if (changes.length === 0 || closed) break;
        cursor = changes.at(-1)!.id;
        for (const subscriber of subscribers) subscriber(changes);
        if (changes.length < 500) break;
      }
    } while (readAgain && !closed);
  }

  /** Reads what is new now, or right after the read in progress (a notification during it may be for a later commit). */
  function wake(): Promise<void> {
    if (closed) return Promise.resolve();
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = readNew()
      .catch(() => {
        // The next notification or poll reads again from the same cursor: nothing is skipped.
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  }

  async function listen(): Promise<void> {
    const client = await pool.connect();
    let released = false;
    const release = (error: Error) => {
      if (released) return false;
      released = true;
      if (stopListening === stop) stopListening = undefined;
      // Released with an error, the pool destroys the connection (and its LISTEN) instead of handing it out again.
      client.release(error);
      return true;
    };
    const stop = () => void release(new Error("the live feed stopped listening"));
    const lost = (error: Error) => {
      if (release(error)) scheduleListen();
    };
    client.on("error", lost);
    client.on("end", () => lost(new Error("the live feed's connection ended")));
    client.on("notification", (message) => {
      if (message.channel === bankIndexChannel) void wake();
    });
    if (closed) return stop();
    stopListening = stop;
    try {
      await client.query(`LISTEN ${bankIndexChannel}`);
    } catch (error) {
      lost(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    failures = 0;
    // Whatever committed while no connection listened.
    void wake();
  }

  function scheduleListen() {
    if (closed) return;
    const wait = Math.min(maxRetryMs, retryMs * 2 ** failures);
    failures += 1;
    retryTimer = setTimeout(() => void listen().catch(scheduleListen), wait);
    retryTimer.unref();
  }

  void listen().catch(scheduleListen);
  const poll = setInterval(() => void wake(), pollMs);
  poll.unref();

  return {
    async subscribe(after, deliver) {
      await start();
      // Subscribed before the catch-up is read, so a change committed meanwhile is buffered, not missed.
      let buffered: LiveChange[] | null = [];
      let delivered = 0;
      const receive = (changes: LiveChange[]) => {
        if (buffered) buffered.push(...changes);
        else
          for (const change of changes) {
            if (change.id <= delivered) continue;
            delivered = change.id;
            deliver({ type: "change", change });
          }
      };
      subscribers.add(receive);
      try {
        const latestId = await newestId(pool);
        delivered = latestId;
        if (after !== null && after < latestId) {
          const catchUp = await versionsBetween(pool, after, latestId, maxCatchUp + 1);
          if (catchUp.length > maxCatchUp) deliver({ type: "reset", latestId });
          else for (const change of catchUp) deliver({ type: "change", change });
        } else if (after !== null && after > latestId) {
          // Ahead of the newest: ids from an index since rebuilt, which mean nothing now.
          deliver({ type: "reset", latestId });
        }
        deliver({ type: "ready", latestId });
        const pending = buffered;
        buffered = null;
        receive(pending);
        return { close: () => subscribers.delete(receive) };
      } catch (error) {
        subscribers.delete(receive);
        throw error;
      }
    },
    close() {
      closed = true;
      clearInterval(poll);
      clearTimeout(retryTimer);
      subscribers.clear();
      stopListening?.();
    },
  };
}
