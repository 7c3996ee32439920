import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { VersionReader } from "./access-cache";

/** The channel `console.raise_access_version()` notifies in the transaction that raises the access version. */
export const accessVersionChannel = "console_access_version";

export interface NotifiedVersionReader extends VersionReader {
  /** To be called for every notification on `accessVersionChannel`, by every connection of the pool that listens. */
  heard(): void;
  /** To be called when a connection of the pool could not listen: from then on, every read asks the database. */
  failed(): void;
  /**
   * Calls `listener` on every notification heard (access may have changed: something holding access open, such as a
   * live stream, checks it again at once); returns how to stop.
   */
  onHeard(listener: () => void): () => void;
}

/**
 * A version reader that reads the access version only after it may have changed: one connection of
 * `pool` listens on `accessVersionChannel`, and while it does, a read answers the version last read unless a
 * notification arrived since, which makes the next read ask the database again (`fallback`). A notification carries
 * no version of its own: anyone connected may send one, so it can cost a read, never hide a change.
 *
 * The other connections of the pool listen too (connectDatabase's `listen`, wired by lib/db/console.ts), so a change
 * this process makes is heard before its write returns (PostgreSQL sends a session its own notification before the
 * answer to its COMMIT; the embedded PGlite does the same, lib/db/embedded.ts): its next request always reads the new
 * version. Another process's change is heard as soon as the database delivers the notification, normally well under a
 * millisecond after the commit. Until the listening connection is up and has heard a probe of its own, and from the
 * moment it fails, every read asks the database, as `fallback` alone would; a database that never passes the probe
 * on (a PGlite served without lib/db/embedded.ts) is read on every request for good.
 */
export function notifiedVersionReader(
  pool: pg.Pool,
  fallback: VersionReader,
  options: { retryMs?: number; probeMs?: number } = {},
): NotifiedVersionReader {
  const retryMs = options.retryMs ?? 1_000;
  const probeMs = options.probeMs ?? 2_000;
  /** The version last read while listening, with no notification since; undefined means ask the database. */
  let known: number | undefined;
  /** Raised by every notification: a read whose count moved while it was in flight is not remembered. */
  let notifications = 0;
  let listening = false;
  let listener: { client: pg.PoolClient; stop(error?: Error): void } | undefined;
  let nextAttempt = 0;
  let starting = false;
  let disabled = false;
  const listeners = new Set<() => void>();

  function heard() {
    notifications += 1;
    known = undefined;
    for (const listener of listeners) listener();
  }

  async function listen(): Promise<void> {
    const client = await pool.connect();
    let stopped = false;
    const stop = (error?: Error) => {
      if (stopped) return;
      stopped = true;
      listening = false;
      known = undefined;
      if (listener?.client === client) listener = undefined;
      nextAttempt = performance.now() + retryMs;
      // Released with an error, the pool destroys the connection instead of reusing it.
      client.release(error ?? new Error("the access-version listener stopped"));
    };
    listener = { client, stop };
    client.on("error", stop);
    client.on("end", () => stop(new Error("the access-version listener's connection ended")));
    const probe = randomUUID();
    const probed = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), probeMs);
      client.on("notification", (message) => {
        if (message.channel !== accessVersionChannel) return;
        if (message.payload === probe) {
          clearTimeout(timer);
          resolve(true);
        }
        heard();
      });
    });
    try {
      await client.query(`LISTEN ${accessVersionChannel}`);
      // Sent on another connection: only a notification that reaches this one proves this one hears the others.
      await pool.query("SELECT pg_notify($1, $2)", [accessVersionChannel, probe]);
      if (!(await probed)) {
        // Not a lost connection but a database that does not pass notifications on: trying again would not help.
        disabled = true;
        throw new Error("the access-version listener did not hear its own probe");
      }
      if (!stopped && !disabled) listening = true;
    } catch (error) {
      stop(error instanceof Error ? error : new Error(String(error)));
    }
  }

  function startListening() {
    if (disabled || listening || starting || listener || performance.now() < nextAttempt) return;
    starting = true;
    void listen()
      .catch(() => {
        nextAttempt = performance.now() + retryMs;
      })
      .finally(() => {
        starting = false;
      });
  }

  return {
    heard,
    onHeard(listener) {
      // Wrapped: the same function given twice is two listeners, each stopped on its own.
      const own = () => listener();
      listeners.add(own);
      return () => void listeners.delete(own);
    },
    failed() {
      disabled = true;
      known = undefined;
      listener?.stop();
    },
    async read() {
      if (disabled) return fallback.read();
      if (known !== undefined) return known;
      startListening();
      const before = notifications;
      const wasListening = listening;
      const version = await fallback.read();
      // Remembered only if the listener was up for the whole read and heard nothing meanwhile.
      if (wasListening && listening && notifications === before) known = version;
      return version;
    },
    release() {
      disabled = true;
      listener?.stop();
      fallback.release();
    },
  };
}
