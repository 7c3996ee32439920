import { beforeAll, describe, expect, it } from "vitest";
import type { ListedResource } from "@/lib/contract/operations";
import { runBackfill } from "@/lib/index/backfill";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { createApiRoute } from "@/lib/api/route";
import { rateLimitRules, resetRateLimits } from "@/lib/api/rate-limit";
import { audited, listAuditRecords } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import { bankExportResolver } from "@/lib/export/bank-export";
import { csvRecords } from "@/tests/support/parse-csv";
import { amountInCents } from "./document";
import { countFromIndex, listFromIndex } from "./index-list";
import { parseIndexListQuery, presetRange } from "./index-list-input";
import { indexListRoutes } from "./index-list-routes";

// Lists served from the index with the filters the bank lacks give exactly what a brute-force filter of the bank's
// full list gives, in the bank's order, page after page.

const key = { id: "key_index_list_test", secret: "index-list-test-secret-0123456789" };
const fixture = sandboxBankForFile(key);
const log = createLogger({ level: "silent" });

type Row = Record<string, unknown>;

async function everyObject(resource: ListedResource): Promise<Row[]> {
  const objects: Row[] = [];
  for await (const page of fixture.bank.resources.listPages(resource, { page_size: 1000 })) objects.push(...page.data);
  return objects;
}

describe.each(testDatabaseTargets)("lists served from the index on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  /** Every page of the index-served list for these URL parameters, walked through its cursors. */
  const walk = async (resource: ListedResource, params: Record<string, string>, now = new Date()) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const parsed = parseIndexListQuery(resource, { ...params, ...(cursor && { page_cursor: cursor }) }, now);
      if (!parsed.ok) throw new Error(parsed.error);
      const page = await listFromIndex(database.db, "sandbox", resource, parsed.page);
      ids.push(...page.data.map((row) => String(row.id)));
      expect(page.index.complete).toBe(true);
      if (!page.nextCursor) return ids;
      cursor = page.nextCursor;
    }
  };

  beforeAll(async () => {
    // A subscription of the console's (its receiver's Basic user) beside a customer's webhook, for the webhooks list.
    await fixture.bank.create_webhook({ url: "https://hooks.example/index-list-test", event: "ach.update" });
    await fixture.bank.create_webhook({
      url: "https://console.example/api/bank-events/sandbox",
      event: "ach.update",
      basic_user: "console-sandbox",
      basic_secret: "index-list-test-receiver-secret",
    });
    await runBackfill({ db: database.db, client: fixture.bank, environment: "sandbox", pageSize: 500, pagesPerSecond: 0, log });
  }, 120_000);

  it("an amount range with several statuses gives exactly the bank's matching objects, in the bank's order", async () => {
    const all = await everyObject("ach");
    const expected = all
      .filter((ach) => ["returned", "error", "pending"].includes(String(ach.status)))
      .filter((ach) => amountInCents(ach.amount)! >= 10_000 && amountInCents(ach.amount)! <= 250_000)
      .map((ach) => ach.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(await walk("ach", { amount_min: "$100", amount_max: "2,500.00", statuses: "returned,error,pending", page_size: "25" })).toEqual(expected);
  });

  it("date presets and a custom range give exactly the objects created in them; has_error those with an error", async () => {
    const all = await everyObject("network_transfer");
    const newest = new Date(String(all[0]!.created_at));
    for (const preset of ["today", "yesterday", "last_7_days", "this_month"] as const) {
      const range = presetRange(preset, newest);
      const expected = all
        .filter((transfer) => new Date(String(transfer.created_at)) >= range.from && new Date(String(transfer.created_at)) < range.before)
        .map((transfer) => transfer.id);
      expect(await walk("network_transfer", { created: preset }, newest), preset).toEqual(expected);
    }
    const from = String(all.at(-1)!.created_at).slice(0, 10);
    const to = String(all[Math.floor(all.length / 2)]!.created_at).slice(0, 10);
    const inRange = all
      .filter((transfer) => String(transfer.created_at).slice(0, 10) >= from && String(transfer.created_at).slice(0, 10) <= to)
      .map((transfer) => transfer.id);
    expect(await walk("network_transfer", { created: "custom", created_from: from, created_to: to })).toEqual(inRange);
    const withError = all.filter((transfer) => typeof transfer.error === "string" && transfer.error !== "").map((transfer) => transfer.id);
    expect(await walk("network_transfer", { has_error: "true" })).toEqual(withError);
  });

  it("applies the bank's own filters beside them as the bank does", async () => {
    const all = await everyObject("ach");
    const direction = String(all[0]!.direction);
    expect(await walk("ach", { direction, has_error: "false" })).toEqual(
      all.filter((ach) => ach.direction === direction && !(typeof ach.error === "string" && ach.error !== "")).map((ach) => ach.id),
    );
  });

  it("counts exactly the objects the list walks, for the bank's filters, the index's, and none", async () => {
    const filterSets: Array<Record<string, string>> = [
      {},
      { status: "returned" },
      { statuses: "returned,sent" },
      { status: "returned", statuses: "returned,sent" },
      { status: "sent", statuses: "returned" },
      { amount_min: "$100", statuses: "returned,sent" },
      { direction: "credit", has_error: "false" },
    ];
    for (const params of filterSets) {
      const parsed = parseIndexListQuery("ach", params);
      if (!parsed.ok) throw new Error(parsed.error);
      const counted = await countFromIndex(database.db, "sandbox", "ach", parsed.page.filter);
      expect(counted.count, JSON.stringify(params)).toBe((await walk("ach", params)).length);
      expect(counted.index.complete).toBe(true);
    }
    expect((await countFromIndex(database.db, "sandbox", "ach", { bank: {} })).count).toBe((await everyObject("ach")).length);
  });

  it("counts the webhooks list as it shows: the customer's webhooks, not the console's own subscriptions", async () => {
    const customers = (await everyObject("webhook")).filter((webhook) => webhook.basic_user !== "console-sandbox");
    for (const params of [{}, { status: "enabled" }, { event: "ach.update" }] as Array<Record<string, string>>) {
      const parsed = parseIndexListQuery("webhook", params);
      if (!parsed.ok) throw new Error(parsed.error);
      const expected = customers.filter((webhook) => Object.entries(params).every(([name, value]) => webhook[name] === value));
      expect((await countFromIndex(database.db, "sandbox", "webhook", parsed.page.filter)).count, JSON.stringify(params)).toBe(expected.length);
    }
  });

  it("masks every row as every list does", async () => {
    const parsed = parseIndexListQuery(
      "person_application",
      { created: "this_month" },
      new Date(String((await everyObject("person_application"))[0]!.created_at)),
    );
    if (!parsed.ok) throw new Error(parsed.error);
    const page = await listFromIndex(database.db, "sandbox", "person_application", parsed.page);
    expect(page.data.length).toBeGreaterThan(0);
    for (const row of page.data) expect(String(row.date_of_birth ?? "****-**-**")).toBe("****-**-**");
  });

  it("names what is wrong with a filter", () => {
    const problem = (params: Record<string, string>) => {
      const parsed = parseIndexListQuery("ach", params);
      return parsed.ok ? null : parsed.error;
    };
    expect(problem({ amount_min: "lots" })).toBe("amount_min: expected an amount such as 1234.56 or $1,234.56");
    expect(problem({ amount_min: "10", amount_max: "5" })).toBe("amount_max: must not be below amount_min");
    expect(problem({ statuses: "returned,lost" })).toMatch(/^statuses: lost is not a status of this list/);
    expect(problem({ created: "last_year" })).toBe("created: must be one of today, yesterday, last_7_days, this_month, custom");
    expect(problem({ created: "custom", created_from: "2025-02-30" })).toBe("created_from: expected a date YYYY-MM-DD");
    expect(problem({ created: "custom" })).toBe("created_from: a custom range needs a start or an end date");
    expect(problem({ created_from: "2025-01-01" })).toBe("created: set created=custom to give a date range");
    expect(problem({ has_error: "maybe" })).toBe("has_error: must be true or false");
    expect(problem({ page_cursor: "ach_123" })).toBe("page_cursor: not a cursor of this list (start again from the first page)");
    expect(problem({ colour: "red" })).toMatch(/colour/);
    expect(problem({ status: "lost" })).toMatch(/^status: /);
  });

  describe("filtered or counted by a field masked for viewers", () => {
    const routes = indexListRoutes({ activeEnvironment: async () => "sandbox", db: async () => database.db });
    const asRole = (role: StaffUser["role"], route: "list" | "count", query: string) =>
      createApiRoute({
        currentUser: async () => ({ id: `stf_filter_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false }),
        log,
      })(routes[route])(new Request(`http://console.test/api/index-list/fednow${route === "count" ? "/count" : ""}?${query}`), {
        params: Promise.resolve({ resource: "fednow" }),
      });
    const recordsOf = async (response: Response) =>
      (await listAuditRecords(database.db, {}, { limit: 10_000 })).filter((record) => record.requestId === response.headers.get("x-request-id"));
    const payment = async () => (await everyObject("fednow")).find((item) => typeof item.external_account_number === "string")!;

    it("is a 403 naming the field for a role that sees it masked, on the list and the count alike, and nothing is audited", async () => {
      const number = String((await payment()).external_account_number);
      for (const role of ["viewer", "operations"] as const) {
        for (const route of ["list", "count"] as const) {
          const response = await asRole(role, route, `external_account_number=${number}&has_error=false`);
          expect(response.status, `${role} ${route}`).toBe(403);
          expect(await response.json()).toEqual({ error: { code: "forbidden", message: expect.stringContaining("external_account_number") } });
          expect(await recordsOf(response)).toEqual([]);
        }
      }
    });

    it("is a 403 naming the field for an export too, and nothing is audited or sent to the bank", async () => {
      const number = String((await payment()).external_account_number);
      let bankAsked = 0;
      for (const query of [`external_account_number=${number}`, `external_account_number=${number}&has_error=false`]) {
        const response = await createApiRoute({
          currentUser: async () => ({ id: "stf_filter_viewer", email: "viewer@demo.bank", name: "viewer", role: "viewer", locked: false }),
          log,
        })(
          bankExportResolver({
            activeEnvironment: async () => "sandbox",
            bankClient: async () => {
              bankAsked++;
              return fixture.bank;
            },
            audited: (entry, perform, options) => audited(database.db, entry, perform, options),
            indexDb: async () => database.db,
          }),
        )(new Request(`http://console.test/api/export/fednow?${query}`), { params: Promise.resolve({ resource: "fednow" }) });
        expect(response.status, query).toBe(403);
        expect(await response.json()).toEqual({ error: { code: "forbidden", message: expect.stringContaining("external_account_number") } });
        expect(await recordsOf(response)).toEqual([]);
      }
      expect(bankAsked).toBe(0);
    });

    it("is answered to a role that sees it unmasked, masked as every list, audited, and refused past the masked-filter allowance", async () => {
      resetRateLimits();
      const found = await payment();
      const number = String(found.external_account_number);
      const query = `external_account_number=${number}&has_error=false`;
      const list = await asRole("compliance", "list", query);
      expect(list.status).toBe(200);
      const text = await list.text();
      expect(text).not.toContain(number);
      const rows = (JSON.parse(text) as { data: Row[] }).data;
      const expected = (await everyObject("fednow")).filter(
        (item) => item.external_account_number === number && !(typeof item.error === "string" && item.error !== ""),
      );
      expect(rows.map((row) => row.id)).toEqual(expected.map((item) => item.id));
      const count = await asRole("compliance", "count", query);
      expect(count.status).toBe(200);
      expect(((await count.json()) as { count: number }).count).toBe(expected.length);
      for (const [response, rowCount] of [
        [list, rows.length],
        [count, expected.length],
      ] as const)
        expect(await recordsOf(response)).toEqual([
          expect.objectContaining({
            actorId: "stf_filter_compliance",
            role: "compliance",
            environment: "sandbox",
            action: "fednow.masked_filter",
            targetId: null,
            before: { filters: { external_account_number: number }, source: "index" },
            after: { rows: rowCount },
            outcome: "succeeded",
          }),
        ]);
      for (let call = 2; call < rateLimitRules.maskedFilter.points; call++) expect((await asRole("compliance", "count", query)).status).toBe(200);
      const limited = await asRole("compliance", "list", query);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
      expect(await recordsOf(limited)).toEqual([]);
    });
  });

  describe("exported", () => {
    const staff = (role: StaffUser["role"]): StaffUser => ({ id: `stf_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false });
    const exportAs = (user: StaffUser, query: string, method: "GET" | "POST" = "GET", resource: ListedResource = "ach") =>
      createApiRoute({ currentUser: async () => user, log })(
        bankExportResolver({
          activeEnvironment: async () => "sandbox",
          bankClient: async () => fixture.bank,
          audited: (entry, perform, options) => audited(database.db, entry, perform, options),
          indexDb: async () => database.db,
        }),
      )(
        new Request(`http://console.test/api/export/${resource}?${query}`, {
          method,
          headers: { origin: "http://console.test" },
          ...(method === "POST" ? { body: JSON.stringify({ reason: "index export test" }) } : {}),
        }),
        { params: Promise.resolve({ resource }) },
      );

    it("an export with index filters gives every row the index-served list walks, masked, audited as from the index", async () => {
      const query = { amount_min: "$100", statuses: "returned,sent", page_size: "7" };
      const response = await exportAs(staff("viewer"), new URLSearchParams(query).toString());
      expect(response.status).toBe(200);
      const { records } = csvRecords(await response.text());
      expect(records.map((record) => record.id)).toEqual(await walk("ach", query));
      const [record] = (await listAuditRecords(database.db, {}, { limit: 1000 })).filter(
        (row) => row.requestId === response.headers.get("x-request-id"),
      );
      expect(record).toMatchObject({
        action: "ach.export",
        before: { filters: { amount_min: "$100", statuses: "returned,sent" }, revealed: false, source: "index" },
        after: { rows: records.length },
        outcome: "succeeded",
      });
    });

    it("an index export is masked for a viewer and unmasked only for pii:reveal by POST with a reason", async () => {
      const masked = csvRecords(await (await exportAs(staff("viewer"), "has_error=false")).text()).records;
      const unmasked = csvRecords(await (await exportAs(staff("compliance"), "has_error=false", "POST")).text()).records;
      expect(unmasked.map((row) => row.id)).toEqual(masked.map((row) => row.id));
      expect(masked.length).toBeGreaterThan(0);
      // userdata is masked for a viewer (lib/pii.ts); some of the demo set's transfers carry it.
      expect(masked.filter((row) => row.userdata === "[masked]").length).toBeGreaterThan(0);
      expect(unmasked.filter((row) => row.userdata === "[masked]")).toEqual([]);
      expect((await exportAs(staff("viewer"), "has_error=false", "POST")).status).toBe(403);
    });

    it("a webhooks export holds the customer's webhooks as the list shows them, from the bank or the index alike", async () => {
      const customers = (await everyObject("webhook")).filter((webhook) => webhook.basic_user !== "console-sandbox");
      const exported = async (query: string) =>
        csvRecords(await (await exportAs(staff("viewer"), query, "GET", "webhook")).text()).records.map((record) => record.id);
      expect(await exported("")).toEqual(customers.map((webhook) => webhook.id));
      const withoutError = customers.filter((webhook) => !(typeof webhook.error === "string" && webhook.error !== ""));
      expect(await exported("has_error=false")).toEqual(withoutError.map((webhook) => webhook.id));
      expect(customers.length).toBeGreaterThan(0);
    });

    it("a malformed index filter is a 400 naming it, and nothing is audited", async () => {
      const before = (await listAuditRecords(database.db, {}, { limit: 10_000 })).length;
      const response = await exportAs(staff("viewer"), "amount_min=lots");
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { message: "amount_min: expected an amount such as 1234.56 or $1,234.56" } });
      expect((await listAuditRecords(database.db, {}, { limit: 10_000 })).length).toBe(before);
    });
  });
});
