import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "@/lib/db/console-schema";
import { bankWithTransfers, bulkJobsKit } from "@/tests/support/bulk-jobs";
import { testDatabaseTargets } from "@/tests/support/databases";
import { csvRecords } from "@/tests/support/parse-csv";
import { selectionExportRoute } from "./export";

// The bulk routes (docs/console-actions.md, "Bulk actions") through the one route wrapper: what they answer to who is
// signed in and to bad input, an id the bank does not have, and the export of the selected rows.

const { bank, transferIds } = bankWithTransfers(10);

describe.each(testDatabaseTargets)("bulk routes, on $name", (target) => {
  const kit = bulkJobsKit(bank, target);
  const { staff, session, harness, route, routes, call, ask, readJob, settled, startRunner, requestsFor, sentToBank } = kit;

  it("answers 401 signed out, 403 without the permission, 400 for an empty selection, 501 rows, an unknown action or resource", async () => {
    const body = { action: "webhook.disable", resource: "webhook", ids: ["webhook_1"] };
    expect((await ask(null, body)).status).toBe(401);
    expect((await ask(staff.viewer, body)).status).toBe(403);
    const empty = await ask(staff.maker, { ...body, ids: [] });
    expect(empty).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("at least one") } } });
    const tooMany = await ask(staff.maker, { ...body, ids: Array.from({ length: 501 }, (_, index) => `webhook_${index}`) });
    expect(tooMany).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("at most 500") } } });
    expect((await ask(staff.maker, { ...body, action: "webhook.explode" })).status).toBe(400);
    const wrongResource = await ask(staff.maker, { ...body, resource: "ach" });
    expect(wrongResource).toMatchObject({ status: 400, json: { error: { message: expect.stringContaining("acts on webhook") } } });
    expect((await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids: ["x"] })).status).toBe(400);
    expect(sentToBank()).toEqual([]);
    expect((await readJob(staff.viewer, randomUUID())).status).toBe(404);
    expect((await call(staff.maker, routes.read, "/api/bulk/nope", undefined, { id: "nope" })).status).toBe(400);
  });

  it("takes an id the bank does not have, and its row is refused with nothing sent", async () => {
    const missing = "nt_not_at_the_bank";
    const ids = [missing, transferIds[0]!];
    const asked = await ask(staff.maker, { action: "userdata.set", resource: "network_transfer", ids, key: "route_check", value: randomUUID() });
    expect(asked).toMatchObject({ status: 202, json: { total: 2, counts: { pending: 2 } } });
    startRunner();
    const done = await settled(staff.maker, asked.json.id);
    expect(done.json.rows).toEqual([
      { id: missing, state: "refused", reason: `${missing} does not exist in the sandbox bank; nothing sent` },
      { id: transferIds[0], state: "done", reason: null },
    ]);
    expect(requestsFor([missing])).toEqual([`GET /network_transfer/${missing}`]);
  });

  it("exports the selected rows as CSV in the order selected, masked, under one export audit record", async () => {
    const ids = [transferIds[5]!, transferIds[2]!, "nt_not_at_the_bank"];
    await bank.direct.patch_network_transfer(ids[0]!, { userdata: { note: "not-for-a-viewer" } });
    const exporter = selectionExportRoute({ ...harness.dependencies(), audited: harness.dependencies().audited });
    session.user = staff.viewer;
    const response = await route(exporter)(
      new Request("http://console.test/api/bulk/export", {
        method: "POST",
        headers: { origin: "http://console.test", "content-type": "application/json" },
        body: JSON.stringify({ resource: "network_transfer", ids }),
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const text = await response.text();
    const { records } = csvRecords(text);
    expect(records.map((record) => record.id)).toEqual(ids.slice(0, 2));
    expect(records[0]!.userdata).toContain("masked");
    expect(text).not.toContain("not-for-a-viewer");
    const [record] = await harness.database.db
      .select()
      .from(schema.auditRecords)
      .where(eq(schema.auditRecords.requestId, response.headers.get("x-request-id")!));
    expect(record).toMatchObject({ action: "network_transfer.export", actorId: staff.viewer.id, outcome: "succeeded", after: { rows: 2 } });
    expect(record!.before).toMatchObject({ ids, source: "selection", revealed: false });
  });
});
