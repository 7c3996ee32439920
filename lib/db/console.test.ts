import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readAccessVersion } from "@/lib/auth/access-cache";
import { createStaff, updateStaff } from "@/lib/auth/staff-users";
import type { ScratchDatabase } from "@/lib/db/scratch-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import type { ConsoleDatabase } from "./console";

// The console's own database as a console process opens it (lib/db/console.ts reads DATABASE_URL once), with the
// access-version reader it picks for the store.
describe.each(testDatabaseTargets)("the console's database on $name", (target) => {
  let scratch: ScratchDatabase;
  let database: ConsoleDatabase;
  const newUser = () =>
    createStaff(database.db, { email: `${Math.random().toString(36).slice(2)}@bank.example`, name: "Wired", role: "viewer", password: null });

  beforeAll(async () => {
    scratch = await target.create();
    process.env.DATABASE_URL = scratch.url;
    process.env.CONSOLE_DEMO_USERS = "off";
    vi.resetModules(); // a fresh lib/db/console per database target
    database = await (await import("./console")).consoleDb();
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  }, 120_000);

  it("sees a change it made on the very next read of the access version", async () => {
    for (let i = 0; i < 3; i++) {
      const before = await database.accessVersion.read();
      await updateStaff(database.db, (await newUser()).id, { role: "admin" });
      expect(await database.accessVersion.read()).toBe(await readAccessVersion(database.pool));
      expect(await database.accessVersion.read()).toBeGreaterThan(before);
    }
  });

  it.runIf(target.name === "postgresql")("on PostgreSQL, stops reading the version on every request once it listens", async () => {
    // The held reading connection's last query start moves with every read that reaches the database.
    const lastRead = async () =>
      (
        await database.pool.query<{ at: Date }>(
          `SELECT query_start AS at FROM pg_stat_activity WHERE datname = current_database() AND query = 'SELECT version FROM console.access_version'`,
        )
      ).rows.map((row) => row.at.getTime());
    await expect
      .poll(async () => {
        await database.accessVersion.read();
        const before = await lastRead();
        for (let i = 0; i < 10; i++) await database.accessVersion.read();
        return before.length === 1 && JSON.stringify(await lastRead()) === JSON.stringify(before);
      })
      .toBe(true);
  });
});
