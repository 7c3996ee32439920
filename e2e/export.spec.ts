import { expect, test, type APIRequestContext } from "@playwright/test";
import { csvRecords } from "@/tests/support/parse-csv";
import { signedInContext } from "./support/staff";

// The console's CSV export against the sandbox bank that `npm start` runs beside it (playwright.config.ts), asked
// through a signed-in browser context, compared with the bank's own answer for the same filter.

const sandboxUrl = `http://127.0.0.1:${process.env.E2E_SANDBOX_PORT ?? 4110}`;
const bankAuth = { authorization: `Basic ${Buffer.from("sandbox-demo-key:sandbox-demo-secret-change-me").toString("base64")}` };
const filter = "status=sent&direction=credit";

/** Every id the bank lists for `query`, following page_next. */
async function bankIds(request: APIRequestContext, resource: string, query: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | undefined = `${sandboxUrl}/${resource}?${query}&page_size=100`;
  while (next) {
    const response = await request.get(next, { headers: bankAuth });
    expect(response.status()).toBe(200);
    const page = (await response.json()) as { data: Array<{ id: string }>; page_next?: string };
    ids.push(...page.data.map((item) => item.id));
    next = page.page_next;
  }
  return ids;
}

test("a CSV export of a filtered list has the same rows as the bank, and is in the audit trail", async ({ browser, request }) => {
  // Two sign-ins and up to three export-and-compare rounds: ~10 s on a quiet machine, more on the shared 2 cores.
  test.setTimeout(90_000);
  const { context: viewer } = await signedInContext(browser, "viewer");
  // The sandbox's lifecycle engine moves transfers between statuses while the suite runs: compare only when the bank
  // gave the same answer before and after the export.
  let compared = false;
  let exportedRows = 0;
  for (let attempt = 0; attempt < 3 && !compared; attempt++) {
    const before = await bankIds(request, "ach", filter);
    const response = await viewer.request.get(`/api/export/ach?${filter}&page_size=25`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/csv");
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="ach-\d{4}-\d{2}-\d{2}\.csv"$/);
    const { header, records } = csvRecords(await response.text());
    const after = await bankIds(request, "ach", filter);
    if (before.join() !== after.join()) continue;
    expect(before.length).toBeGreaterThan(25);
    expect(header[0]).toBe("id");
    expect(records.map((record) => record.id)).toEqual(before);
    expect(new Set(records.map((record) => `${record.status} ${record.direction}`))).toEqual(new Set(["sent credit"]));
    exportedRows = records.length;
    compared = true;
  }
  expect(compared, "the bank's answer kept changing during three attempts").toBe(true);
  await viewer.close();

  const { context: compliance } = await signedInContext(browser, "compliance");
  const trail = csvRecords(await (await compliance.request.get("/api/audit/export?action=ach.export&actor=viewer@")).text());
  expect(trail.records[0]).toMatchObject({ actorEmail: "viewer@demo.bank", targetId: "", outcome: "succeeded" });
  expect(JSON.parse(trail.records[0]!.before!)).toEqual({ filters: { status: "sent", direction: "credit" }, revealed: false });
  expect(JSON.parse(trail.records[0]!.after!)).toEqual({ rows: exportedRows });
  await compliance.close();
});

test("an unmasked export is refused to a viewer and given to compliance", async ({ browser, baseURL }) => {
  const { context: viewer } = await signedInContext(browser, "viewer");
  const refused = await viewer.request.post("/api/export/person_application", { headers: { origin: baseURL! } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe("forbidden");
  const masked = csvRecords(await (await viewer.request.get("/api/export/person_application")).text());
  expect(new Set(masked.records.map((record) => record.date_of_birth))).toEqual(new Set(["****-**-**"]));
  await viewer.close();

  const { context: compliance } = await signedInContext(browser, "compliance");
  const withoutReason = await compliance.request.post("/api/export/person_application", { headers: { origin: baseURL! } });
  expect(withoutReason.status()).toBe(400);
  expect((await withoutReason.json()).error.message).toContain("reason");
  const unmasked = await compliance.request.post("/api/export/person_application", { headers: { origin: baseURL! }, data: { reason: "e2e export" } });
  expect(unmasked.status()).toBe(200);
  const { records } = csvRecords(await unmasked.text());
  expect(records.length).toBe(masked.records.length);
  expect(records.every((record) => /^\d{4}-\d{2}-\d{2}$/.test(record.date_of_birth!))).toBe(true);
  await compliance.close();
});

test("a bad filter is a 400 naming it", async ({ browser }) => {
  const { context } = await signedInContext(browser, "viewer");
  const response = await context.request.get("/api/export/ach?status=exploded");
  expect(response.status()).toBe(400);
  expect((await response.json()).error.message).toContain("status");
  await context.close();
});
