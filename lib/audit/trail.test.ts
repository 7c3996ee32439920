import { describe, expect, it } from "vitest";
import { connectDatabase } from "@/lib/db/connect";
import * as schema from "@/lib/db/console-schema";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { csvStream } from "@/lib/csv/csv-stream";
import { auditCsvColumns } from "./csv";
import {
  audited,
  auditRecordsQuery,
  everyAuditRecord,
  listAuditActions,
  listAuditRecords,
  recordAuditEvent,
  type AuditEntry,
  type AuditFilter,
  type AuditRecord,
} from "./trail";

const actor = { id: "stf_1", email: "ops@demo.bank", role: "operations" as const };
const entry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  actor,
  environment: "sandbox",
  action: "webhook.update",
  targetId: "wh_1",
  requestId: "req_1",
  ...overrides,
});

describe.each(testDatabaseTargets)("audit trail on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  const recordsFor = async (requestId: string) =>
    (await listAuditRecords(database.db, {}, { limit: 1000 })).filter((record) => record.requestId === requestId);

  it("leaves exactly one succeeded record with before and after for a mutation", async () => {
    const result = await audited(database.db, entry({ requestId: "req_ok", before: { enabled: true } }), async () => ({ enabled: false }), {
      after: (updated) => updated,
    });
    expect(result).toEqual({ enabled: false });
    const records = await recordsFor("req_ok");
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actorEmail: "ops@demo.bank",
      role: "operations",
      environment: "sandbox",
      action: "webhook.update",
      targetId: "wh_1",
      before: { enabled: true },
      after: { enabled: false },
      outcome: "succeeded",
      error: null,
    });
    expect(records[0]!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("records a failed mutation once, with its error, and passes the error on", async () => {
    await expect(audited(database.db, entry({ requestId: "req_fail" }), async () => Promise.reject(new Error("bank unreachable")))).rejects.toThrow(
      "bank unreachable",
    );
    const records = await recordsFor("req_fail");
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ outcome: "failed", error: "bank unreachable", after: null });
  });

  it("does not perform the mutation when its audit record cannot be written", async () => {
    const unreachable = connectDatabase("postgres://nobody@127.0.0.1:1/none", schema);
    let performed = false;
    await expect(
      audited(unreachable.db, entry(), async () => {
        performed = true;
      }),
    ).rejects.toThrow();
    await unreachable.close();
    expect(performed).toBe(false);
  });

  it("refuses to change, delete or truncate records, and finalizes a record only once", async () => {
    await recordAuditEvent(database.db, entry({ action: "application.reveal", requestId: "req_reveal", targetId: "app_1" }));
    const [record] = await recordsFor("req_reveal");
    expect(record).toMatchObject({ outcome: "succeeded", action: "application.reveal" });
    await expect(database.pool.query("UPDATE console.audit_records SET actor_email = 'someone@else' WHERE id = $1", [record!.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(database.pool.query("UPDATE console.audit_records SET outcome = 'failed' WHERE id = $1", [record!.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(database.pool.query("DELETE FROM console.audit_records WHERE id = $1", [record!.id])).rejects.toThrow(/append-only/);
    await expect(database.pool.query("TRUNCATE console.audit_records")).rejects.toThrow(/append-only/);
    expect(await recordsFor("req_reveal")).toHaveLength(1);
  });

  it("filters by actor, action, target and date, newest first, one keyset page after another", async () => {
    for (let i = 0; i < 5; i++) {
      await recordAuditEvent(
        database.db,
        entry({ actor: { ...actor, email: "pager@demo.bank" }, action: "staff.lock", targetId: `stf_${i}`, requestId: `req_page_${i}` }),
      );
    }
    const first = await listAuditRecords(database.db, { actor: "PAGER@" }, { limit: 3 });
    const second = await listAuditRecords(database.db, { actor: "pager@" }, { limit: 3, after: first.at(-1)!.id });
    expect([...first, ...second].map((record) => record.targetId)).toEqual(["stf_4", "stf_3", "stf_2", "stf_1", "stf_0"]);
    expect(await listAuditRecords(database.db, { action: "staff.lock", target: "stf_3" }, { limit: 10 })).toHaveLength(1);
    // A create is written before the bank names the new object: found by the id its answer (after) carries.
    await audited(
      database.db,
      entry({ action: "webhook.create", targetId: null, before: undefined, requestId: "req_create" }),
      async () => ({ id: "webhook_new" }),
      { after: (result) => result },
    );
    expect(await listAuditRecords(database.db, { target: "webhook_new" }, { limit: 10 })).toEqual([
      expect.objectContaining({ action: "webhook.create", targetId: null }),
    ]);
    expect(await listAuditRecords(database.db, { actor: "%" }, { limit: 10 })).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(await listAuditRecords(database.db, { actor: "pager@", from: today, to: today }, { limit: 10 })).toHaveLength(5);
    expect(await listAuditRecords(database.db, { actor: "pager@", to: "2000-01-01" }, { limit: 10 })).toHaveLength(0);
    // Only this test's own action: the others' records exist only when they ran first (shuffled runs).
    const actions = await listAuditActions(database.db);
    expect(actions).toContain("staff.lock");
    expect(new Set(actions).size).toBe(actions.length);
  });

  it("finds an object's history, its create included, through indexes rather than by reading every record", async () => {
    const { sql: text, params } = auditRecordsQuery(database.db, { target: "wh_created" }, { limit: 51 }).toSQL();
    const client = await database.pool.connect();
    try {
      // Few rows: the planner would scan the table; forbidding that shows indexes can answer the query.
      await client.query("SET enable_seqscan = off");
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params);
      const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan).toContain("audit_records_target_idx");
      expect(plan).toContain("audit_records_created_id_idx");
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  });

  it("hides every search record with one filter, and nothing else", async () => {
    const hider = { ...actor, email: "hider@demo.bank" };
    for (const action of ["search.masked_fields", "fednow.masked_filter", "person_application.reveal", "staff.lock", "fednow.maskedXfilter"]) {
      await recordAuditEvent(database.db, entry({ actor: hider, action, requestId: `req_hide_${action}` }));
    }
    const actionsOf = async (filter: AuditFilter) =>
      (await listAuditRecords(database.db, { actor: "hider@", ...filter }, { limit: 10 })).map((record) => record.action).sort();
    expect(await actionsOf({})).toEqual([
      "fednow.maskedXfilter",
      "fednow.masked_filter",
      "person_application.reveal",
      "search.masked_fields",
      "staff.lock",
    ]);
    // The `_` of masked_filter is a character, not LIKE's any-character: a look-alike action stays.
    expect(await actionsOf({ searches: "hidden" })).toEqual(["fednow.maskedXfilter", "person_application.reveal", "staff.lock"]);
  });

  it("reads every matching record for an export, across pages, newest first", async () => {
    for (let i = 0; i < 5; i++) {
      await recordAuditEvent(database.db, entry({ action: "staff.unlock", targetId: `stf_export_${i}`, requestId: `req_export_${i}` }));
    }
    const exported: (string | null)[] = [];
    for await (const record of everyAuditRecord(database.db, { action: "staff.unlock" }, 2)) exported.push(record.targetId);
    expect(exported).toEqual(["stf_export_4", "stf_export_3", "stf_export_2", "stf_export_1", "stf_export_0"]);
  });
});

async function* records(...list: AuditRecord[]) {
  yield* list;
}
const auditCsv = (rows: AsyncIterable<AuditRecord>) => csvStream(rows, { columns: auditCsvColumns });

describe("audit CSV export", () => {
  it("quotes commas, quotes and line breaks, and defuses spreadsheet formulas", async () => {
    const csv = await new Response(
      auditCsv(
        records({
          id: 7,
          at: "2026-11-22T10:00:00Z",
          actorId: "stf_1",
          actorEmail: "a@demo.bank",
          role: "admin",
          environment: null,
          action: "staff.create",
          targetId: '=HYPERLINK("x")',
          before: null,
          after: { name: 'Ann, "A"' },
          outcome: "succeeded",
          error: null,
          requestId: "req_1",
        }),
      ),
    ).text();
    expect(csv).toBe(
      "id,at,actorEmail,actorId,role,environment,action,targetId,outcome,error,requestId,before,after\r\n" +
        `7,2026-11-22T10:00:00Z,a@demo.bank,stf_1,admin,,staff.create,"'=HYPERLINK(""x"")",succeeded,,req_1,,"{""name"":""Ann, \\""A\\""""}"\r\n`,
    );
  });

  it("is the header alone when nothing matches", async () => {
    expect(await new Response(auditCsv(records())).text()).toBe(
      "id,at,actorEmail,actorId,role,environment,action,targetId,outcome,error,requestId,before,after\r\n",
    );
  });
});
