import { describe, expect, it } from "vitest";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { deleteSavedConnection, saveConnection } from "@/lib/credentials/store";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { createAccessCache, readAccessVersion } from "./access-cache";
import { createStaff, findSessionUser, removeStaff, updateStaff } from "./staff-users";

describe.each(testDatabaseTargets)("the access cache on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  /** A console process: its own pool and cache; `loads` counts the database lookups behind the cache. */
  function consoleProcess(pool = database.pool) {
    const counts = { versionReads: 0, loads: 0 };
    const cache = createAccessCache(() => {
      counts.versionReads++;
      return readAccessVersion(pool);
    });
    /** One request: the signed-in user, as getCurrentUser reads it. */
    const currentUser = (id: string, signedInAt = new Date()) =>
      cache.request(async () => {
        // As in the console, a request does other work (reading its session cookie) before the lookup.
        await new Promise((resolve) => setImmediate(resolve));
        return cache.get(`session-user:${id}:${signedInAt.getTime()}`, () => {
          counts.loads++;
          return findSessionUser(database.db, id, signedInAt);
        });
      });
    return { cache, counts, currentUser };
  }

  const newUser = (role: "viewer" | "admin" = "viewer") =>
    createStaff(database.db, { email: `${Math.random().toString(36).slice(2)}@bank.example`, name: "Cached", role, password: null });

  it("answers repeated requests from the cache, with one version read per request", async () => {
    const user = await newUser();
    const process = consoleProcess();
    const signedInAt = new Date();
    expect(await process.currentUser(user.id, signedInAt)).toMatchObject({ id: user.id, role: "viewer" });
    expect(await process.currentUser(user.id, signedInAt)).toMatchObject({ id: user.id, role: "viewer" });
    expect(process.counts).toEqual({ versionReads: 2, loads: 1 });
  });

  it("applies a role change, a lock and a removal on the very next request", async () => {
    const user = await newUser();
    const process = consoleProcess();
    const signedInAt = new Date(Date.now() - 1000);
    expect((await process.currentUser(user.id, signedInAt))?.role).toBe("viewer");
    await updateStaff(database.db, user.id, { role: "admin" });
    expect((await process.currentUser(user.id, signedInAt))?.role).toBe("admin");
    await updateStaff(database.db, user.id, { locked: true });
    expect(await process.currentUser(user.id, signedInAt)).toBeNull();
    await updateStaff(database.db, user.id, { locked: false });
    // Unlocking does not revive a session from before the lock (sessions_revoked_at), cached or not.
    expect(await process.currentUser(user.id, signedInAt)).toBeNull();
    expect(await process.currentUser(user.id, new Date())).toMatchObject({ id: user.id });
    await removeStaff(database.db, user.id);
    expect(await process.currentUser(user.id, new Date())).toBeNull();
  });

  it("is invalidated through the database: a change made by another console process applies on this one's next request", async () => {
    const user = await newUser();
    const other = connectDatabase(new URL(database.pool.options.connectionString!).toString(), schema);
    try {
      const here = consoleProcess();
      const signedInAt = new Date(Date.now() - 1000);
      expect((await here.currentUser(user.id, signedInAt))?.role).toBe("viewer");
      await updateStaff(other.db, user.id, { role: "admin" });
      expect((await here.currentUser(user.id, signedInAt))?.role).toBe("admin");
    } finally {
      await other.close();
    }
  });

  it("raises the version on every change to staff users or saved credentials, in the writing transaction", async () => {
    const versions = [await readAccessVersion(database.pool)];
    const record = async () => versions.push(await readAccessVersion(database.pool));
    const user = await newUser();
    await record();
    await updateStaff(database.db, user.id, { role: "admin" });
    await record();
    const key = Buffer.alloc(32, 7);
    await saveConnection(database.db, { environment: "production", baseUrl: "https://bank.example", auth: { type: "bearer", token: "t" } }, key, "test");
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
    const user = await newUser();
    const process = consoleProcess();
    const signedInAt = new Date();
    await process.currentUser(user.id, signedInAt);
    const reads = process.counts.versionReads;
    await Promise.all(Array.from({ length: 20 }, () => process.currentUser(user.id, signedInAt)));
    expect(process.counts.versionReads - reads).toBeLessThan(20);
    const afterBurst = process.counts.versionReads;
    await process.currentUser(user.id, signedInAt);
    expect(process.counts.versionReads).toBe(afterBurst + 1);
  });

  it("does not remember a failed load: the next request loads again", async () => {
    const process = consoleProcess();
    let attempts = 0;
    const load = () => process.cache.request(() => process.cache.get("flaky", async () => (++attempts === 1 ? Promise.reject(new Error("down")) : "up")));
    await expect(load()).rejects.toThrow("down");
    expect(await load()).toBe("up");
  });
});
