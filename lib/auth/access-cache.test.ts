import pg from "pg";
import { describe, expect, it } from "vitest";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { deleteSavedConnection, saveConnection } from "@/lib/credentials/store";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { createAccessCache, heldConnectionVersionReader, readAccessVersion } from "./access-cache";
import { findSessionUser } from "@/tests/support/sessions";
import { createSession, endSession } from "./sessions";
import { createStaff, removeStaff, updateStaff } from "./staff-users";

describe.each(testDatabaseTargets)("the access cache on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  /** A console process: its own pool and cache; `loads` counts the database lookups behind the cache. */
  function consoleProcess(pool = database.pool) {
    const counts = { versionReads: 0, loads: 0 };
    const cache = createAccessCache(() => {
      counts.versionReads++;
      return readAccessVersion(pool);
    });
    /** One request: the user of a server-side session, as getCurrentUser reads it. */
    const currentUser = (sessionId: string) =>
      cache.request(async () => {
        // As in the console, a request does other work (reading its session cookie) before the lookup.
        await new Promise((resolve) => setImmediate(resolve));
        return cache.get(`session:${sessionId}`, () => {
          counts.loads++;
          return findSessionUser(database.db, sessionId);
        });
      });
    return { cache, counts, currentUser };
  }

  const newUser = (role: "viewer" | "admin" = "viewer") =>
    createStaff(database.db, { email: `${Math.random().toString(36).slice(2)}@bank.example`, name: "Cached", role, password: null });
  const signIn = async (userId: string) => (await createSession(database.db, { userId, maxAgeMs: 3_600_000, userAgent: null, address: null })).id;

  it("answers repeated requests from the cache, with one version read per request", async () => {
    const user = await newUser();
    const session = await signIn(user.id);
    const process = consoleProcess();
    expect(await process.currentUser(session)).toMatchObject({ id: user.id, role: "viewer" });
    expect(await process.currentUser(session)).toMatchObject({ id: user.id, role: "viewer" });
    expect(process.counts).toEqual({ versionReads: 2, loads: 1 });
  });

  it("applies a sign-out, a role change, a lock and a removal on the very next request", async () => {
    const user = await newUser();
    const process = consoleProcess();
    const signedOut = await signIn(user.id);
    expect(await process.currentUser(signedOut)).toMatchObject({ id: user.id });
    await endSession(database.db, signedOut);
    expect(await process.currentUser(signedOut)).toBeNull();
    // A role change ends the user's sessions: the next sign-in carries the new role.
    const beforeRoleChange = await signIn(user.id);
    expect((await process.currentUser(beforeRoleChange))?.role).toBe("viewer");
    await updateStaff(database.db, user.id, { role: "admin" });
    expect(await process.currentUser(beforeRoleChange)).toBeNull();
    expect((await process.currentUser(await signIn(user.id)))?.role).toBe("admin");
    const beforeLock = await signIn(user.id);
    expect(await process.currentUser(beforeLock)).toMatchObject({ id: user.id });
    await updateStaff(database.db, user.id, { locked: true });
    expect(await process.currentUser(beforeLock)).toBeNull();
    await updateStaff(database.db, user.id, { locked: false });
    // Unlocking does not revive a session from before the lock, cached or not.
    expect(await process.currentUser(beforeLock)).toBeNull();
    const afterUnlock = await signIn(user.id);
    expect(await process.currentUser(afterUnlock)).toMatchObject({ id: user.id });
    await removeStaff(database.db, user.id);
    expect(await process.currentUser(afterUnlock)).toBeNull();
  });

  it("is invalidated through the database: a change made by another console process applies on this one's next request", async () => {
    const user = await newUser();
    const session = await signIn(user.id);
    const other = connectDatabase(new URL(database.pool.options.connectionString!).toString(), schema);
    try {
      const here = consoleProcess();
      expect(await here.currentUser(session)).toMatchObject({ id: user.id });
      await endSession(other.db, session);
      expect(await here.currentUser(session)).toBeNull();
    } finally {
      await other.close();
    }
  });

  it("raises the version on every change to staff users, their sessions or saved credentials, in the writing transaction", async () => {
    const versions = [await readAccessVersion(database.pool)];
    const record = async () => versions.push(await readAccessVersion(database.pool));
    const user = await newUser();
    await record();
    await endSession(database.db, await signIn(user.id));
    await record();
    await updateStaff(database.db, user.id, { role: "admin" });
    await record();
    const key = Buffer.alloc(32, 7);
    await saveConnection(
      database.db,
      { environment: "production", baseUrl: "https://bank.example", auth: { type: "bearer", token: "t" } },
      key,
      "test",
    );
    await record();
    await deleteSavedConnection(database.db, "production");
    await record();
    await removeStaff(database.db, user.id);
    await record();
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]!);
    // A rolled-back change raises nothing.
    const before = await readAccessVersion(database.pool);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(schema.staffUsers).set({ role: "admin" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await readAccessVersion(database.pool)).toBe(before);
  });

  it("shares one version read between concurrent requests that began before it, never with a request that began after", async () => {
    const session = await signIn((await newUser()).id);
    const process = consoleProcess();
    await process.currentUser(session);
    const reads = process.counts.versionReads;
    await Promise.all(Array.from({ length: 20 }, () => process.currentUser(session)));
    expect(process.counts.versionReads - reads).toBeLessThan(20);
    const afterBurst = process.counts.versionReads;
    await process.currentUser(session);
    expect(process.counts.versionReads).toBe(afterBurst + 1);
  });

  it("does not remember a failed load: the next request loads again", async () => {
    const process = consoleProcess();
    let attempts = 0;
    const load = () =>
      process.cache.request(() => process.cache.get("flaky", async () => (++attempts === 1 ? Promise.reject(new Error("down")) : "up")));
    await expect(load()).rejects.toThrow("down");
    expect(await load()).toBe("up");
  });
  describe("the version reader", () => {
    /** A console process's own pool on the test database, ended with the reader released. */
    async function withReaderPool(test: (pool: pg.Pool, reader: ReturnType<typeof heldConnectionVersionReader>) => Promise<void>) {
      const pool = new pg.Pool({ connectionString: database.pool.options.connectionString, max: 3 });
      pool.on("error", () => {});
      const reader = heldConnectionVersionReader(pool);
      try {
        await test(pool, reader);
      } finally {
        reader.release();
        await pool.end();
      }
    }

    it("keeps one connection for every read and sees each change committed before the read", async () => {
      await withReaderPool(async (pool, reader) => {
        const first = await reader.read();
        for (let i = 0; i < 20; i++) expect(await reader.read()).toBe(first);
        expect(pool.totalCount - pool.idleCount).toBe(1);
        await updateStaff(database.db, (await newUser()).id, { role: "admin" });
        expect(await reader.read()).toBeGreaterThan(first);
        expect(pool.totalCount - pool.idleCount).toBe(1);
      });
    });

    it("sends one query at a time: reads asked for during one share the next", async () => {
      await withReaderPool(async (pool, reader) => {
        const queries = { sent: 0, running: 0, mostAtOnce: 0 };
        pool.on("connect", (client) => {
          const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
          Object.assign(client, {
            query: async (...args: unknown[]) => {
              queries.sent++;
              queries.mostAtOnce = Math.max(queries.mostAtOnce, ++queries.running);
              try {
                return await query(...args);
              } finally {
                queries.running--;
              }
            },
          });
        });
        const before = await reader.read();
        await updateStaff(database.db, (await newUser()).id, { role: "admin" });
        queries.sent = 0;
        const burst = await Promise.all(Array.from({ length: 20 }, () => reader.read()));
        for (const version of burst) expect(version).toBeGreaterThan(before);
        // The first read is sent at once; the other 19, asked for while it ran, share one more.
        expect(queries.sent).toBe(2);
        expect(queries.mostAtOnce).toBe(1);
      });
    });

    it("gives the connection back on release, so the pool can end", async () => {
      await withReaderPool(async (pool, reader) => {
        await reader.read();
        reader.release();
        await expect.poll(() => pool.totalCount - pool.idleCount).toBe(0);
        // Reading again after a release holds a fresh connection.
        expect(await reader.read()).toBe(await readAccessVersion(database.pool));
      });
    });

    // PGlite serves every connection from one backend, which cannot be terminated on its own.
    it.runIf(target.name === "postgresql")("takes a fresh connection when the held one is lost, without crashing the process", async () => {
      await withReaderPool(async (pool, reader) => {
        const before = await reader.read();
        const { rows } = await database.pool.query<{ terminated: boolean }>(
          `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
           WHERE datname = current_database() AND query = 'SELECT version FROM console.access_version' AND pid <> pg_backend_pid()`,
        );
        expect(rows).toEqual([{ terminated: true }]);
        // Idle meanwhile: the server's goodbye reaches the held connection as an error event, not as a failed read.
        await new Promise((resolve) => setTimeout(resolve, 300));
        // The lost connection is dropped (by its error event, or by the read that finds it closed); a read then succeeds.
        await expect.poll(async () => reader.read().catch(() => "failed"), { timeout: 5_000 }).toBe(before);
        expect(pool.totalCount - pool.idleCount).toBe(1);
      });
    });
  });
});
