import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiRoute } from "@/lib/api/route";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { ListedResource } from "@/lib/contract/operations";
import { runBackfill } from "@/lib/index/backfill";
import { createLogger } from "@/lib/log";
import { resources } from "@/lib/resources";
import { sortKindOf, type SortKind } from "@/lib/resources/sorting";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { listFromIndex, maxMatchingIds } from "./index-list";
import { parseIndexListQuery } from "./index-list-input";
import { indexListRoutes } from "./index-list-routes";

// Sorting an index-served list by any column gives exactly the order a brute-force sort of the index's objects gives,
// page after page: a missing value lowest, text by code point, ties by id in the same direction.

const key = { id: "key_index_sort_test", secret: "index-sort-test-secret-0123456789" };
const fixture = sandboxBankForFile(key);
const log = createLogger({ level: "silent" });
const sortedResources: ListedResource[] = ["network_transfer", "ach", "fednow", "deposit_sweep", "counterparty", "business_application"];

type Indexed = {
  id: string;
  state: Record<string, unknown>;
  created: string;
  amount_cents: string | null;
};

const valueAt = (state: Record<string, unknown>, path: string) =>
  path
    .split(".")
    .reduce<unknown>((value, part) => (value && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined), state);
const codePoints = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The brute force: the column's value as the rules say it compares, computed in TypeScript from each kept object. */
function comparable(object: Indexed, column: string, kind: SortKind): number | string {
  const value = valueAt(object.state, column);
  switch (kind) {
    case "amount":
      return object.amount_cents === null ? -1 : Number(object.amount_cents);
    case "money":
      return typeof value === "string" && /^[0-9]{1,13}[.][0-9]{2}$/.test(value) ? Number(value) : -1;
    case "created":
      return object.created;
    case "time":
      return typeof value === "string" && /^[0-9]{4}-[0-9]{2}-[0-9]{2}T/.test(value) ? Date.parse(value) : -1e15;
    case "text":
      return typeof value === "string" ? value : value === null || value === undefined ? "" : JSON.stringify(value);
  }
}

describe.each(testDatabaseTargets)("lists sorted by the index on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  beforeAll(async () => {
    await runBackfill({ db: database.db, client: fixture.bank, environment: "sandbox", pageSize: 500, pagesPerSecond: 0, log });
  }, 120_000);

  const indexed = async (resource: ListedResource) =>
    (
      await database.db.execute<Indexed>(sql`
        SELECT o.id, o.state, to_char(o.bank_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created, s.amount_cents::text AS amount_cents
        FROM console.bank_objects o LEFT JOIN console.bank_search s ON s.environment = o.environment AND s.id = o.id
        WHERE o.environment = 'sandbox' AND o.resource = ${resource} AND o.state IS NOT NULL AND o.bank_created_at IS NOT NULL`)
    ).rows;

  const walk = async (resource: ListedResource, params: Record<string, string>) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const parsed = parseIndexListQuery(resource, { ...params, ...(cursor && { page_cursor: cursor }) });
      if (!parsed.ok) throw new Error(parsed.error);
      const page = await listFromIndex(database.db, "sandbox", resource, parsed.page);
      ids.push(...page.data.map((row) => String(row.id)));
      if (!page.nextCursor) return ids;
      cursor = page.nextCursor;
    }
  };

  it.each(sortedResources)("%s: every sortable column, both ways, across pages, in exactly the brute-force order", async (resource) => {
    const objects = await indexed(resource);
    expect(objects.length).toBeGreaterThan(10);
    const pageSize = String(Math.max(2, Math.ceil(objects.length / 4)));
    for (const field of resources[resource].columns) {
      const kind = sortKindOf(field);
      if (!kind) continue;
      for (const descending of [false, true]) {
        const order = descending ? -1 : 1;
        const expected = objects
          .map((object) => ({ id: object.id, value: comparable(object, field.key, kind) }))
          .sort((a, b) => {
            const byValue =
              typeof a.value === "number" && typeof b.value === "number" ? a.value - b.value : codePoints(String(a.value), String(b.value));
            return order * (byValue !== 0 ? Math.sign(byValue) : codePoints(a.id, b.id));
          })
          .map((object) => object.id);
        const sort = `${descending ? "-" : ""}${field.key}`;
        expect(await walk(resource, { sort, page_size: pageSize }), `${resource} sort=${sort}`).toEqual(expected);
      }
    }
  });

  it("sorts within the filters, and the default order is the bank's, newest first", async () => {
    const objects = await indexed("ach");
    const returned = objects.filter((object) => object.state.status === "returned" || object.state.status === "sent");
    const byAmount = returned.sort((a, b) => Number(b.amount_cents) - Number(a.amount_cents) || codePoints(b.id, a.id)).map((object) => object.id);
    expect(await walk("ach", { statuses: "returned,sent", sort: "-amount", page_size: "3" })).toEqual(byAmount);
    expect(await walk("ach", { has_error: "false", sort: "-created_at", page_size: "5" })).toEqual(
      await walk("ach", { has_error: "false", page_size: "5" }),
    );
  });

  describe("over HTTP", () => {
    const routes = indexListRoutes({ activeEnvironment: async () => "sandbox", db: async () => database.db });
    const call = (route: "list" | "ids", query: string, role: StaffUser["role"] | null = "viewer", resource = "ach") =>
      createApiRoute({
        currentUser: async () => (role ? { id: `stf_sort_${role}`, email: `${role}@demo.bank`, name: role, role, locked: false } : null),
        log,
      })(routes[route])(new Request(`http://console.test/api/index-list/${resource}${route === "ids" ? "/ids" : ""}?${query}`), {
        params: Promise.resolve({ resource }),
      });

    it("an unknown column to sort by is a 400 naming it; a cursor of another sort a 400 too", async () => {
      const response = await call("list", "sort=-colour");
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^sort: cannot sort this list by "colour"/);
      const first = (await (await call("list", "sort=-amount&page_size=2")).json()) as { page_next: string };
      const cursor = new URL(first.page_next, "http://console.test").searchParams.get("page_cursor")!;
      expect((await call("list", `sort=amount&page_cursor=${cursor}`)).status).toBe(400);
    });

    it("a sort by a field the role sees masked is a 403 naming it, as a filter by it is; an unmasked one is not", async () => {
      const response = await call("list", "sort=email_address", "viewer", "person_application");
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain("email_address");
      expect((await call("list", "sort=-created_at", "viewer", "person_application")).status).toBe(200);
    });

    it("the matching ids are the list's, in its order, at most 500; signed out 401", async () => {
      const response = await call("ids", "statuses=returned,sent&sort=-amount");
      expect(response.status).toBe(200);
      const body = (await response.json()) as { ids: string[]; more: boolean };
      expect(body.ids).toEqual(await walk("ach", { statuses: "returned,sent", sort: "-amount", page_size: "50" }));
      expect(body.more).toBe(false);
      expect(body.ids.length).toBeLessThanOrEqual(maxMatchingIds);
      expect((await call("ids", "statuses=lost")).status).toBe(400);
      expect((await call("ids", "", null)).status).toBe(401);
    });
  });
});
