import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { verifyAuditChain } from "./chain";
import { audited, recordAuditEvent } from "./trail";

// The tamper-evident audit trail (docs/security.md, "The audit trail") on each database target: the trigger stamps
// `at` and the pending state itself, every insert and finalization is a link of the hash chain, and the verifier finds the first record
// changed behind the trigger's back (here by the database's owner: the test connection is a superuser).

const actor = { id: "stf_chain", email: "chain@bank.example", role: "admin" as const };
const entry = (action: string) => ({ actor, environment: null, action, targetId: "t_1", requestId: `req_${randomUUID()}` });

describe.each(testDatabaseTargets)("the audit trail's hash chain on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const query = (text: string, values: unknown[] = []) => database.pool.query(text, values);
  const owner = async (statement: string, values: unknown[] = []) => {
    await query("ALTER TABLE console.audit_records DISABLE TRIGGER audit_records_guard_rows");
    try {
      await query(statement, values);
    } finally {
      await query("ALTER TABLE console.audit_records ENABLE TRIGGER audit_records_guard_rows");
    }
  };
  const idOf = async (requestId: string) =>
    Number((await query("SELECT id FROM console.audit_records WHERE request_id = $1", [requestId])).rows[0].id);

  it("links every insert and finalization, and holds as the console writes", async () => {
    const linksBefore = (await verifyAuditChain(database.pool)).links;
    await audited(database.db, entry("chain.one"), async () => "ok", { after: () => ({ done: true }) });
    await audited(database.db, entry("chain.two"), async () => Promise.reject(new Error("bank said no"))).catch(() => undefined);
    await recordAuditEvent(database.db, { ...entry("chain.three"), after: { revealed: true } });
    const report = await verifyAuditChain(database.pool);
    expect(report).toEqual({ links: linksBefore + 6, head: expect.stringMatching(/^[0-9a-f]{64}$/), broken: null });
  });

  it("sets the time and the pending state of an insert itself: no back-dated or pre-finalized record", async () => {
    const requestId = `req_${randomUUID()}`;
    await query(
      `INSERT INTO console.audit_records (at, actor_id, actor_email, role, action, outcome, "after", request_id, finished_at)
       VALUES ('2000-01-01T00:00:00Z', 'stf_x', 'x@bank.example', 'admin', 'forged', 'succeeded', '{"forged":true}', $1, '2000-01-01T00:00:01Z')`,
      [requestId],
    );
    const { rows } = await query(`SELECT at, outcome, "after", finished_at FROM console.audit_records WHERE request_id = $1`, [requestId]);
    expect(rows[0]).toMatchObject({ outcome: "pending", after: null, finished_at: null });
    expect(Math.abs(new Date(rows[0].at as string).getTime() - Date.now())).toBeLessThan(60_000);
    expect((await verifyAuditChain(database.pool)).broken).toBeNull();
  });

  it("finds a record its owner changed behind the trigger, and holds again once it is put back", async () => {
    const requestId = `req_${randomUUID()}`;
    await audited(database.db, { ...entry("chain.victim"), requestId }, async () => "ok", { after: () => ({ amount: "10.00" }) });
    const id = await idOf(requestId);
    await owner(`UPDATE console.audit_records SET "after" = '{"amount":"99.00"}' WHERE id = $1`, [id]);
    expect((await verifyAuditChain(database.pool)).broken).toEqual({
      seq: expect.any(Number),
      recordId: id,
      problem: `record ${id} differs from what was recorded at its finalize`,
    });
    await owner(`UPDATE console.audit_records SET "after" = '{"amount":"10.00"}' WHERE id = $1`, [id]);
    expect((await verifyAuditChain(database.pool)).broken).toBeNull();
    await owner(`UPDATE console.audit_records SET actor_email = 'someone@else' WHERE id = $1`, [id]);
    expect((await verifyAuditChain(database.pool)).broken).toMatchObject({
      recordId: id,
      problem: `record ${id} differs from what was recorded at its insert`,
    });
    await owner(`UPDATE console.audit_records SET actor_email = $2 WHERE id = $1`, [id, actor.email]);
    expect((await verifyAuditChain(database.pool)).broken).toBeNull();
  });

  it("finds a record inserted past the trigger, and a pending record that may no longer be finalized", async () => {
    const requestId = `req_${randomUUID()}`;
    await owner(
      `INSERT INTO console.audit_records (actor_id, actor_email, role, action, outcome, request_id) VALUES ('stf_x', 'x@bank.example', 'admin', 'sneaked', 'succeeded', $1)`,
      [requestId],
    );
    const id = await idOf(requestId);
    expect((await verifyAuditChain(database.pool)).broken).toEqual({
      seq: null,
      recordId: id,
      problem: `record ${id} has no insert link: it was written past the trigger`,
    });
    // The owner can still take it out again (the chain never held it); the console's role cannot (roles.test.ts).
    await query("ALTER TABLE console.audit_records DISABLE TRIGGER audit_records_guard_rows");
    await query("DELETE FROM console.audit_records WHERE id = $1", [id]);
    await query("ALTER TABLE console.audit_records ENABLE TRIGGER audit_records_guard_rows");
    expect((await verifyAuditChain(database.pool)).broken).toBeNull();
  });

  it("refuses finalizing a pending record more than an hour after it started", async () => {
    const requestId = `req_${randomUUID()}`;
    await query(
      `INSERT INTO console.audit_records (actor_id, actor_email, role, action, outcome, request_id) VALUES ('stf_x', 'x@bank.example', 'admin', 'stale', 'pending', $1)`,
      [requestId],
    );
    const id = await idOf(requestId);
    const { rows } = await query("SELECT at FROM console.audit_records WHERE id = $1", [id]);
    await owner("UPDATE console.audit_records SET at = at - interval '2 hours' WHERE id = $1", [id]);
    await expect(query(`UPDATE console.audit_records SET outcome = 'succeeded', "after" = '{"forged":true}' WHERE id = $1`, [id])).rejects.toThrow(
      /within an hour/,
    );
    await owner("UPDATE console.audit_records SET at = $2 WHERE id = $1", [id, rows[0].at]);
    expect((await verifyAuditChain(database.pool)).broken).toBeNull();
  });

  it("keeps the chain itself append-only", async () => {
    // A row-level guard says nothing about an empty chain, so the test writes a link first (it may run first, alone).
    await recordAuditEvent(database.db, { ...entry("chain.guarded"), after: { guarded: true } });
    await expect(query("UPDATE console.audit_chain SET hash = 'x'")).rejects.toThrow(/append-only/);
    await expect(query("DELETE FROM console.audit_chain")).rejects.toThrow(/append-only/);
  });
});
