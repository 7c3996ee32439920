import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleMigrations, migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { applyMigrations } from "./connect";
import * as schema from "./console-schema";

describe.each(testDatabaseTargets)("console database on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  it("applies the committed migrations, and applying them again changes nothing", async () => {
    await applyMigrations(database, consoleMigrations, "console");
    const tables = await database.pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'console'");
    expect(tables.rows.map((row) => row.table_name)).toContain("staff_users");
  });

  it("stores and reads back a row", async () => {
    await database.db.insert(schema.staffUsers).values({ id: "stf_1", email: "a@example.test", name: "A", role: "viewer" });
    const [row] = await database.db.select().from(schema.staffUsers).where(eq(schema.staffUsers.id, "stf_1"));
    expect(row).toMatchObject({ email: "a@example.test", role: "viewer", locked: false });
  });

  it("never shows a transaction's uncommitted writes to another connection", async () => {
    // On PGlite the other connection's read waits for the transaction to end (one backend, multiplexed);
    // on PostgreSQL it runs at once. Either way it must not see the rolled-back row.
    const client = await database.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("INSERT INTO console.staff_users (id, email, name, role) VALUES ('stf_2', 'b@example.test', 'B', 'admin')");
      const outside = database.pool.query("SELECT count(*)::int AS n FROM console.staff_users WHERE id = 'stf_2'");
      await new Promise((resolve) => setTimeout(resolve, 50));
      await client.query("ROLLBACK");
      expect((await outside).rows[0].n).toBe(0);
    } finally {
      client.release();
    }
  });
});
