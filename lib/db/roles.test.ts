import { spawnSync } from "node:child_process";
import { eq } from "drizzle-orm";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "@/lib/audit/chain";
import { audited } from "@/lib/audit/trail";
import { recordObservations } from "@/lib/index/store";
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
  const refusal = (statement: string) =>
    consoleRuntime.pool.query(statement).then(
      () => "allowed",
      (error: Error) => error.message,
    );

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl, `t_roles_${suffix}`);
    await admin(roleSetupStatements(new URL(scratch.url).pathname.slice(1), roles), scratch.url);
    const migration = connectDatabase(as(roles.migration), schema);
    await applyMigrations(migration, path.resolve("drizzle/console"), "console");
    await migration.close();
    await grantConsoleRuntime(as(roles.migration), roles.console);
    consoleRuntime = connectDatabase(as(roles.console), schema);
    sandbox = await openSandboxDatabase(as(roles.sandbox));
  }, 120_000);

  afterAll(async () => {
    await consoleRuntime?.close();
    await sandbox?.close();
    await scratch?.drop();
    await admin(Object.values(roles).map((role) => `DROP ROLE IF EXISTS ${pg.escapeIdentifier(role)}`));
  });

  it("lets the console's role use its tables and write the audit trail as the console does", async () => {
    await consoleRuntime.db.insert(schema.staffUsers).values({ id: "stf_roles", email: "roles@bank.example", name: "Roles", role: "viewer" });
    const entry = {
      actor: { id: "stf_roles", email: "roles@bank.example", role: "admin" as const },
      environment: null,
      action: "roles.test",
      targetId: null,
      requestId: "req_roles",
    };
    expect(await audited(consoleRuntime.db, entry, async () => "done", { after: (result) => ({ result }) })).toBe("done");
    const [record] = await consoleRuntime.db.select().from(schema.auditRecords).where(eq(schema.auditRecords.requestId, "req_roles"));
    expect(record).toMatchObject({ action: "roles.test", outcome: "succeeded", after: { result: "done" } });
  });

  it("lets the console's role index bank objects, whose counts it may read but only the triggers move (migration 0023)", async () => {
    await recordObservations(
      consoleRuntime.db,
      "sandbox",
      [{ resource: "ach", id: "ach_roles_counted", state: { id: "ach_roles_counted", status: "pending", updated_at: "2026-11-28T07:00:00Z" } }],
      { source: "sweep" },
    );
    const counted = await consoleRuntime.pool.query("SELECT status, objects::int AS objects FROM console.bank_object_counts WHERE resource = 'ach'");
    expect(counted.rows).toEqual([{ status: "pending", objects: 1 }]);
    expect(await refusal(`UPDATE console.bank_object_counts SET objects = 0`)).toMatch(/permission denied/);
    expect(
      await refusal(`INSERT INTO console.bank_object_counts (environment, resource, status, objects) VALUES ('sandbox', 'ach', 'sent', 5)`),
    ).toMatch(/permission denied/);
  });

  it("refuses the console's role changing or deleting an audit record, and touching the trigger or the table", async () => {
    expect(await refusal(`UPDATE console.audit_records SET action = 'forged'`)).toMatch(/permission denied/);
    expect(await refusal(`DELETE FROM console.audit_records`)).toMatch(/permission denied/);
    expect(await refusal(`TRUNCATE console.audit_records`)).toMatch(/permission denied/);
    expect(await refusal(`DROP TRIGGER audit_records_guard_rows ON console.audit_records`)).toMatch(/must be owner/);
    expect(await refusal(`ALTER TABLE console.audit_records DISABLE TRIGGER ALL`)).toMatch(/must be owner/);
    expect(await refusal(`DROP FUNCTION console.audit_records_guard() CASCADE`)).toMatch(/must be owner/);
    expect(await refusal(`CREATE TABLE console.intruder (id int)`)).toMatch(/permission denied/);
    // The trigger still guards the one column the role may update: a finalized record (this test's own) stays as it is.
    const entry = {
      actor: { id: "stf_guard", email: "guard@bank.example", role: "admin" as const },
      environment: null,
      action: "roles.guard",
      targetId: null,
      requestId: "req_guard",
    };
    await audited(consoleRuntime.db, entry, async () => "done");
    expect(await refusal(`UPDATE console.audit_records SET outcome = 'failed' WHERE request_id = 'req_guard'`)).toMatch(/append-only/);
  });

  it("lets the console's role add review notes but never edit or delete one, nor delete a decision", async () => {
    await consoleRuntime.pool.query(
      `INSERT INTO console.review_notes (environment, application_id, author_id, author_email, text) VALUES ('sandbox', 'pa_roles', 'stf_roles', 'roles@bank.example', 'first')`,
    );
    expect(await refusal(`UPDATE console.review_notes SET text = 'forged'`)).toMatch(/permission denied/);
    expect(await refusal(`DELETE FROM console.review_notes`)).toMatch(/permission denied/);
    expect(await refusal(`TRUNCATE console.review_notes`)).toMatch(/permission denied/);
    expect(await refusal(`DROP TRIGGER review_notes_append_only_rows ON console.review_notes`)).toMatch(/must be owner/);
    expect(await refusal(`DELETE FROM console.review_decisions`)).toMatch(/permission denied/);
    expect(await refusal(`UPDATE console.review_decisions SET note = 'forged'`)).toMatch(/permission denied/);
    expect((await consoleRuntime.pool.query(`SELECT text FROM console.review_notes WHERE application_id = 'pa_roles'`)).rows).toEqual([
      { text: "first" },
    ]);
  });

  it("lets the console's role add and decide a change request but never delete one or change what was asked (docs/approvals.md)", async () => {
    const { rows } = await consoleRuntime.pool.query(
      `INSERT INTO console.change_requests (environment, kind, action, permission, payload, maker_id, maker_email, maker_role, expires_at, request_id)
       VALUES ('production', 'bank', 'webhook.create', 'webhook:write', '{"url":"https://hooks.example/roles"}', 'stf_maker', 'maker@bank.example', 'operations', now() + interval '1 hour', 'req_roles')
       RETURNING id`,
    );
    const id = rows[0].id as string;
    expect(await refusal(`UPDATE console.change_requests SET payload = '{"url":"https://evil.example"}' WHERE id = ${id}`)).toMatch(
      /permission denied/,
    );
    expect(await refusal(`DELETE FROM console.change_requests`)).toMatch(/permission denied/);
    expect(await refusal(`TRUNCATE console.change_requests`)).toMatch(/permission denied/);
    expect(
      await refusal(`UPDATE console.change_requests SET state = 'approved', decided_by_id = 'stf_maker', decided_at = now() WHERE id = ${id}`),
    ).toMatch(/change_requests_four_eyes/);
    await consoleRuntime.pool.query(
      `UPDATE console.change_requests SET state = 'rejected', decided_by_id = 'stf_other', decided_by_email = 'other@bank.example', decided_by_role = 'operations', decided_at = now() WHERE id = ${id}`,
    );
    expect(await refusal(`UPDATE console.change_requests SET state = 'approved' WHERE id = ${id}`)).toMatch(/decided once/);
  });

  it("lets the console's role insert no back-dated or finalized audit record, nor write the hash chain", async () => {
    await consoleRuntime.pool.query(
      `INSERT INTO console.audit_records (at, actor_id, actor_email, role, action, outcome, "after", request_id)
       VALUES ('2001-01-01T00:00:00Z', 'stf_forger', 'ceo@bank.example', 'admin', 'staff.delete', 'succeeded', '{"forged":true}', 'req_forged')`,
    );
    const { rows } = await consoleRuntime.pool.query(`SELECT at, outcome, "after" FROM console.audit_records WHERE request_id = 'req_forged'`);
    expect(rows[0]).toMatchObject({ outcome: "pending", after: null });
    expect(new Date(rows[0].at as string).getFullYear()).toBe(new Date().getFullYear());
    expect(await refusal(`INSERT INTO console.audit_chain (record_id, kind, prev_hash, hash) VALUES (1, 'insert', '', 'x')`)).toMatch(
      /permission denied/,
    );
    expect(await refusal(`UPDATE console.audit_chain SET hash = 'x'`)).toMatch(/permission denied/);
    expect(await refusal(`DELETE FROM console.audit_chain`)).toMatch(/permission denied/);
    expect((await verifyAuditChain(consoleRuntime.pool)).broken).toBeNull();
  });

  it("npm run audit:verify finds a record the owner role changed behind the trigger", async () => {
    const entry = {
      actor: { id: "stf_owner", email: "owner@bank.example", role: "admin" as const },
      environment: null,
      action: "roles.owner",
      targetId: null,
      requestId: "req_owner",
    };
    await audited(consoleRuntime.db, entry, async () => "done", { after: () => ({ amount: "10.00" }) });
    await admin(
      [
        "ALTER TABLE console.audit_records DISABLE TRIGGER audit_records_guard_rows",
        `UPDATE console.audit_records SET "after" = '{"amount":"1000.00"}' WHERE request_id = 'req_owner'`,
        "ALTER TABLE console.audit_records ENABLE TRIGGER audit_records_guard_rows",
      ],
      as(roles.migration),
    );
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/audit-verify.ts"], {
      env: { ...process.env, AUDIT_VERIFY_URL: as(roles.console) },
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^audit trail BROKEN at link \d+ \(record \d+\): record \d+ differs from what was recorded at its finalize/);
    // Undone as it was done, so the trail this file shares is whole again for the tests that run after this one.
    await admin(
      [
        "ALTER TABLE console.audit_records DISABLE TRIGGER audit_records_guard_rows",
        `UPDATE console.audit_records SET "after" = '{"amount":"10.00"}' WHERE request_id = 'req_owner'`,
        "ALTER TABLE console.audit_records ENABLE TRIGGER audit_records_guard_rows",
      ],
      as(roles.migration),
    );
    expect((await verifyAuditChain(consoleRuntime.pool)).broken).toBeNull();
  });

  it("refuses the sandbox bank's role every console table, while it works in its own schema", async () => {
    for (const table of [
      "staff_users",
      "bank_credentials",
      "audit_records",
      "staff_sessions",
      "sign_in_throttle",
      "receiver_credentials",
      "bank_event_inbox",
      "bank_objects",
      "bank_object_versions",
      "index_backfill",
      "audit_chain",
      "review_cases",
      "review_checklist_items",
      "review_notes",
      "review_decisions",
    ]) {
      const answer = await sandbox.pool.query(`SELECT * FROM console.${table}`).then(
        () => "allowed",
        (error: Error) => error.message,
      );
      expect(answer, table).toMatch(/permission denied/);
    }
    expect((await sandbox.pool.query(`SELECT count(*) FROM sandbox.webhooks`)).rows).toEqual([{ count: "0" }]);
  });
});
