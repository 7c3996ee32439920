import { eq } from "drizzle-orm";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audited } from "@/lib/audit/trail";
import { openSandboxDatabase, type SandboxDatabase } from "@/sandbox/db";
import { applyMigrations, connectDatabase, type Database } from "./connect";
import * as schema from "./console-schema";
import { grantConsoleRuntime, roleSetupStatements } from "./roles";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-database";

// Roles exist only on PostgreSQL (docs/database-roles.md says what holds on the embedded PGlite).
const adminUrl = process.env.TEST_DATABASE_URL;

describe.runIf(adminUrl)("database roles on PostgreSQL", () => {
  const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const roles = { migration: `t_migration_${suffix}`, console: `t_console_${suffix}`, sandbox: `t_sandbox_${suffix}` };
  let scratch: ScratchDatabase;
  let consoleRuntime: Database<typeof schema>;
  let sandbox: SandboxDatabase;
  const as = (role: string) => {
    const url = new URL(scratch.url);
    url.username = role;
    return url.toString();
  };
  const admin = async (statements: string[], url = adminUrl!) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  };
  /** The error PostgreSQL answers `statement` with, run as the console's role. */
  const refusal = (statement: string) => consoleRuntime.pool.query(statement).then(() => "allowed", (error: Error) => error.message);

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl, `t_roles_${suffix}`);
    await admin(roleSetupStatements(new URL(scratch.url).pathname.slice(1), roles), scratch.url);
    const migration = connectDatabase(as(roles.migration), schema);
    await applyMigrations(migration, path.resolve("drizzle/console"), "console");
    await migration.close();
    await grantConsoleRuntime(as(roles.migration), roles.console);
    consoleRuntime = connectDatabase(as(roles.console), schema);
    sandbox = await openSandboxDatabase(as(roles.sandbox));
  }, 60_000);

  afterAll(async () => {
    await consoleRuntime?.close();
    await sandbox?.close();
    await scratch?.drop();
    await admin(Object.values(roles).map((role) => `DROP ROLE IF EXISTS ${pg.escapeIdentifier(role)}`));
  });

  it("lets the console's role use its tables and write the audit trail as the console does", async () => {
    await consoleRuntime.db.insert(schema.staffUsers).values({ id: "stf_roles", email: "roles@bank.example", name: "Roles", role: "viewer" });
    const entry = { actor: { id: "stf_roles", email: "roles@bank.example", role: "admin" as const }, environment: null, action: "roles.test", targetId: null, requestId: "req_roles" };
    expect(await audited(consoleRuntime.db, entry, async () => "done", { after: (result) => ({ result }) })).toBe("done");
    const [record] = await consoleRuntime.db.select().from(schema.auditRecords).where(eq(schema.auditRecords.requestId, "req_roles"));
    expect(record).toMatchObject({ action: "roles.test", outcome: "succeeded", after: { result: "done" } });
  });

  it("refuses the console's role changing or deleting an audit record, and touching the trigger or the table", async () => {
    expect(await refusal(`UPDATE console.audit_records SET action = 'forged'`)).toMatch(/permission denied/);
    expect(await refusal(`DELETE FROM console.audit_records`)).toMatch(/permission denied/);
    expect(await refusal(`TRUNCATE console.audit_records`)).toMatch(/permission denied/);
    expect(await refusal(`DROP TRIGGER audit_records_append_only_rows ON console.audit_records`)).toMatch(/must be owner/);
    expect(await refusal(`ALTER TABLE console.audit_records DISABLE TRIGGER ALL`)).toMatch(/must be owner/);
    expect(await refusal(`DROP FUNCTION console.audit_records_append_only() CASCADE`)).toMatch(/must be owner/);
    expect(await refusal(`CREATE TABLE console.intruder (id int)`)).toMatch(/permission denied/);
    // The trigger still guards the one column the role may update: a finalized record (this test's own) stays as it is.
    const entry = { actor: { id: "stf_guard", email: "guard@bank.example", role: "admin" as const }, environment: null, action: "roles.guard", targetId: null, requestId: "req_guard" };
    await audited(consoleRuntime.db, entry, async () => "done");
    expect(await refusal(`UPDATE console.audit_records SET outcome = 'failed' WHERE request_id = 'req_guard'`)).toMatch(/append-only/);
  });

  it("refuses the sandbox bank's role every console table, while it works in its own schema", async () => {
    for (const table of ["staff_users", "bank_credentials", "audit_records", "staff_sessions", "sign_in_throttle", "receiver_credentials", "bank_event_inbox", "bank_objects", "bank_object_versions", "index_backfill"]) {
      const answer = await sandbox.pool.query(`SELECT * FROM console.${table}`).then(() => "allowed", (error: Error) => error.message);
      expect(answer, table).toMatch(/permission denied/);
    }
    expect((await sandbox.pool.query(`SELECT count(*) FROM sandbox.webhooks`)).rows).toEqual([{ count: "0" }]);
  });
});
