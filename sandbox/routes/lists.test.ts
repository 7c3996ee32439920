import { beforeAll, describe, expect, it } from "vitest";
import { listedResources, moneyPattern, timestampPattern, datePattern } from "@/lib/contract";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { insertFixtures, rows, tables } from "@/tests/support/sandbox-fixtures";
import { resourceTables } from "./resource-sources";

type Page = { data: Array<Record<string, unknown>>; page_next?: string };

describe.each(testDatabaseTargets)("list and get routes on $name", (target) => {
  const fixture = sandboxOnDatabase(target, { seed: "empty" });
  const { request } = fixture;

  beforeAll(async () => {
    await insertFixtures(fixture.sandbox.context.db, 3);
    // ACH transfers with varied filter values: 25 in all, newest is ach_fixture001.
    await fixture.sandbox.context.db.insert(tables.ach).values(
      Array.from({ length: 22 }, (_, i) =>
        rows.ach(i + 4, {
          status: i % 2 ? "sent" : "returned",
          direction: i % 3 ? "credit" : "debit",
          service: i % 4 ? "standard" : "sameday",
          account_id: i % 5 ? "acct_1" : "acct_2",
          effective_date: i < 10 ? "2026-03-11" : "2026-03-12",
        }),
      ),
    );
  }, 120_000);

  const resources = Object.keys(resourceTables) as (keyof typeof resourceTables)[];

  it.each(resources)("GET the %s list returns contract-exact objects, newest first", async (name) => {
    const { path, schema } = listedResources[name];
    const response = await request(path);
    expect(response.status).toBe(200);
    const page = response.body as Page;
    expect(page.data.length).toBeGreaterThanOrEqual(3);
    for (const object of page.data) {
      const parsed = schema.safeParse(object);
      expect(parsed.error?.issues ?? []).toEqual([]);
      // Every field of the contract is present, null when empty, and nothing else is added.
      expect(Object.keys(object).sort()).toEqual(Object.keys(schema.shape).sort());
      for (const [field, value] of Object.entries(object)) {
        if (field.endsWith("_at") && value !== null) expect(value).toMatch(timestampPattern);
      }
    }
    const created = page.data.map((object) => object.created_at as string);
    expect(created).toEqual([...created].sort().reverse());
  });

  it.each(resources)("GET one %s by id returns it; an unknown id is a 404 with an error body", async (name) => {
    const { path } = listedResources[name];
    const first = ((await request(path)).body as Page).data[0]!;
    const one = await request(`${path}/${String(first.id)}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(first);
    const missing = await request(`${path}/${name}_missing`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: expect.stringContaining(`${name}_missing`) });
  });

  it("formats money with two decimals, dates as YYYY-MM-DD and timestamps without fractions", async () => {
    const ach = (await request("/ach/ach_fixture001")).body as Record<string, unknown>;
    expect(ach.amount).toBe("1234.50");
    expect(ach.amount).toMatch(moneyPattern);
    expect(ach.effective_date).toMatch(datePattern);
    expect(ach.created_at).toBe("2026-03-10T11:59:00Z");
    const sweep = (await request("/deposit_sweep/dsa_fixture1")).body as Record<string, unknown>;
    expect([sweep.sweep_balance, sweep.threshold_balance]).toEqual(["250000.00", "100000.00"]);
  });

  it("walks every page with page_next, carrying filters, without repeats or gaps", async () => {
    const seen: string[] = [];
    let next: string | undefined = `${fixture.sandbox.url}/ach?page_size=4&service=standard`;
    let pages = 0;
    while (next) {
      expect(next).toContain("service=standard");
      expect(next).toContain("page_size=4");
      const page: Page = (await request(next)).body as Page;
      expect(page.data.length).toBeLessThanOrEqual(4);
      seen.push(...page.data.map((object) => object.id as string));
      next = page.page_next;
      pages++;
    }
    const all = ((await request("/ach?service=standard&page_size=1000")).body as Page).data.map((o) => o.id);
    expect(seen).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 4));
  });

  it("omits page_next when the page holds the last object, and returns data [] after it", async () => {
    const all = (await request("/ach?page_size=1000")).body as Page;
    expect(all.data).toHaveLength(25);
    expect(all.page_next).toBeUndefined();
    const exact = (await request("/ach?page_size=25")).body as Page;
    expect(exact.page_next).toBeUndefined();
    const last = all.data.at(-1)!.id as string;
    expect((await request(`/ach?page_cursor=${last}`)).body).toEqual({ data: [] });
  });

  it("starts the page after the cursor object", async () => {
    const all = ((await request("/ach?page_size=1000")).body as Page).data.map((o) => o.id);
    const page = (await request(`/ach?page_cursor=${all[4]}&page_size=3`)).body as Page;
    expect(page.data.map((o) => o.id)).toEqual(all.slice(5, 8));
    expect(page.page_next).toBe(`${fixture.sandbox.url}/ach?page_size=3&page_cursor=${all[7]}`);
  });

  it("uses page_size 100 by default", async () => {
    await fixture.sandbox.context.db.insert(tables.counterparty).values(Array.from({ length: 100 }, (_, i) => rows.counterparty(i + 10)));
    const page = (await request("/counterparty")).body as Page;
    expect(page.data).toHaveLength(100);
    expect(page.page_next).toContain("page_cursor=");
  });

  it("refuses an unknown page_cursor, and a page_size outside 1..1000, with a 400 naming the parameter", async () => {
    for (const query of ["page_cursor=ach_nope", "page_size=0", "page_size=1001", "page_size=abc", "page_size=2.5"]) {
      const response = await request(`/ach?${query}`);
      expect(response.status, query).toBe(400);
      expect((response.body as { error: string }).error).toContain(query.split("=")[0]);
    }
    expect((await request("/ach?page_size=1000")).status).toBe(200);
  });

  it("filters by from_date (inclusive) and to_date (exclusive) on the creation day in UTC", async () => {
    await fixture.sandbox.context.db
      .insert(tables.fednow)
      .values([
        rows.fednow(100, { id: "fednow_day9", created_at: new Date("2026-03-09T00:00:00Z") }),
        rows.fednow(101, { id: "fednow_day8", created_at: new Date("2026-03-08T23:59:59Z") }),
      ]);
    const ids = async (query: string) => ((await request(`/fednow?${query}`)).body as Page).data.map((o) => o.id);
    expect(await ids("from_date=2026-03-09&to_date=2026-03-10")).toEqual(["fednow_day9"]);
    expect(await ids("to_date=2026-03-09")).toEqual(["fednow_day8"]);
    expect(await ids("from_date=2026-03-10")).toEqual(["fednow_fixture1", "fednow_fixture2", "fednow_fixture3"]);
    expect((await request("/fednow?from_date=2026-02-30")).status).toBe(400);
  });

  it.each(["/ach", "/fednow", "/network_transfer", "/counterparty", "/deposit_sweep", "/webhook"])(
    "refuses a date before year 1 on %s with a 400 naming it (PostgreSQL keeps no year 0000)",
    async (list) => {
      for (const query of ["from_date=0000-01-01", "to_date=0000-12-31"]) {
        const response = await request(`${list}?${query}`);
        expect([response.status, (response.body as { error: string }).error]).toEqual([400, expect.stringContaining(query.split("=")[0]!)]);
      }
    },
  );

  it.each([
    ["status", "sent"],
    ["direction", "debit"],
    ["service", "sameday"],
    ["account_id", "acct_2"],
    ["effective_date", "2026-03-12"],
    ["counterparty_id", "cp_1"],
    ["org_id", "org_1"],
  ])("filters ACH transfers by %s", async (field, value) => {
    const all = ((await request("/ach?page_size=1000")).body as Page).data;
    const filtered = ((await request(`/ach?${field}=${value}&page_size=1000`)).body as Page).data;
    const expected = all.filter((object) => object[field] === value);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThanOrEqual(all.length);
    expect(filtered).toEqual(expected);
  });

  it("filters ACH transfers by the 15-digit trace number (trace_suffix) and combines filters", async () => {
    const one = ((await request("/ach?trace_suffix=021000000000007")).body as Page).data;
    expect(one.map((o) => o.id)).toEqual(["ach_fixture007"]);
    const both = ((await request("/ach?status=sent&direction=credit&page_size=1000")).body as Page).data;
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((o) => o.status === "sent" && o.direction === "credit")).toBe(true);
  });

  it("filters ACH transfers by the end of the trace number: 1 to 15 digits (GET /ach?trace_suffix=0000001 was a 400)", async () => {
    const all = ((await request("/ach?page_size=1000")).body as Page).data;
    for (const suffix of ["7", "0000007", "00000000007", "021000000000007"]) {
      const found = ((await request(`/ach?trace_suffix=${suffix}&page_size=1000`)).body as Page).data;
      const expected = all.filter((object) => typeof object.trace_number === "string" && object.trace_number.endsWith(suffix));
      expect(expected.length).toBeGreaterThan(0);
      expect(found).toEqual(expected);
    }
    for (const bad of ["", "0210000000000071", "12a", "%00"]) {
      const answer = await request(`/ach?trace_suffix=${bad}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: expect.stringContaining("trace_suffix") });
    }
  });

  it("seeks an index for a trace_suffix shorter than 15 digits (the reversed trace number, text_pattern_ops)", async () => {
    const client = await fixture.sandbox.context.database.pool.connect();
    try {
      // Few rows: the planner would scan; forbidding the scan shows an index can answer the query.
      await client.query("SET enable_seqscan = off");
      const { rows } = await client.query(
        `EXPLAIN SELECT id FROM sandbox.ach WHERE reverse("trace_number") LIKE $1 ORDER BY created_at DESC, id DESC LIMIT 51`,
        ["7000000%"],
      );
      expect(rows.map((row: { "QUERY PLAN": string }) => row["QUERY PLAN"]).join("\n")).toContain("ach_trace_number_reversed_idx");
    } finally {
      await client.query("RESET enable_seqscan");
      client.release();
    }
  });

  it.each([
    ["/network_transfer", "cross_bank=true", (o: Record<string, unknown>) => o.cross_bank === true],
    ["/network_transfer", "from_account_id=acct_from", (o: Record<string, unknown>) => o.from_account_id === "acct_from"],
    ["/network_transfer", "to_account_id=acct_to", (o: Record<string, unknown>) => o.to_account_id === "acct_to"],
    ["/network_transfer", "status=pending", (o: Record<string, unknown>) => o.status === "pending"],
    ["/network_transfer", "org_id=org_1", (o: Record<string, unknown>) => o.org_id === "org_1"],
    ["/fednow", "payment_id=pay_2", (o: Record<string, unknown>) => o.payment_id === "pay_2"],
    ["/fednow", "bank_id=bank_1", (o: Record<string, unknown>) => o.bank_id === "bank_1"],
    ["/fednow", "account_id=acct_1", (o: Record<string, unknown>) => o.account_id === "acct_1"],
    ["/fednow", "external_account_number=123456789", (o: Record<string, unknown>) => o.external_account_number === "123456789"],
    ["/fednow", "status=pending", (o: Record<string, unknown>) => o.status === "pending"],
    ["/fednow", "org_id=org_1", (o: Record<string, unknown>) => o.org_id === "org_1"],
    ["/card", "status=active", (o: Record<string, unknown>) => o.status === "active"],
    ["/card", "account_id=acct_1", (o: Record<string, unknown>) => o.account_id === "acct_1"],
    ["/digital_wallet_token", "card_id=card_fixture1", (o: Record<string, unknown>) => o.card_id === "card_fixture1"],
    ["/digital_wallet_token", "status=active", (o: Record<string, unknown>) => o.status === "active"],
  ])("filters %s by %s", async (path, query, matches) => {
    const filtered = ((await request(`${path}?${query}&page_size=1000`)).body as Page).data;
    const all = ((await request(`${path}?page_size=1000`)).body as Page).data;
    expect(filtered).toEqual(all.filter(matches));
    expect(filtered.length).toBeGreaterThan(0);
  });

  it("filters person applications by person_id and external_status returns only matching payments", async () => {
    await fixture.sandbox.context.db.insert(tables.person_application).values(rows.person_application(50, { person_id: "psn_7" }));
    const people = ((await request("/apply/person_application?person_id=psn_7")).body as Page).data;
    expect(people.map((o) => o.id)).toEqual(["apsn_fixture50"]);
    expect(((await request("/fednow?external_status=done")).body as Page).data).toEqual([]);
  });

  it("refuses an unknown query parameter with a 400 naming the allowed ones", async () => {
    const response = await request("/deposit_sweep?status=sent");
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toBe("Unknown query parameter status; allowed: page_cursor, page_size, from_date, to_date");
  });

  it("refuses a bad filter value or a repeated parameter with a 400 naming it", async () => {
    const bad = await request("/ach?direction=sideways");
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toBe("direction must be one of credit, debit");
    const repeated = await request("/ach?status=sent&status=error");
    expect(repeated.status).toBe(400);
    expect((repeated.body as { error: string }).error).toContain("status");
  });
});
