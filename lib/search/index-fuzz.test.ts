import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listedResources, type ListedResource } from "@/lib/contract/operations";
import * as schema from "@/lib/db/console-schema";
import { everyEvent, listEvents } from "@/lib/index/events-list";
import { parseEventsQuery } from "@/lib/index/events-list-input";
import { savedViewInput } from "@/lib/views/input";
import { createView } from "@/lib/views/store";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { fuzzComponent, fuzzEdges, fuzzParameters, fuzzSeeds } from "@/tests/support/fuzz";
import { countFromIndex, listFromIndex } from "./index-list";
import { parseIndexListQuery } from "./index-list-input";

// The index's own inputs under random and malformed values, down to the database on each target: an index-served
// list and its count (filters, custom dates, cursors), the events page and its export, and a saved view. Property:
// either the parser refuses the input naming a field (a 400), or the database runs it; never a database error (a 500,
// or an export broken mid-stream). Before, a cursor of ["2020","x"] or of year 0000, a NUL in a cursor's id,
// created_to=9999-12-31, to=9999-12-31 and a view named with a NUL all reached PostgreSQL.

/** Values: the shared corpus, its edges of PostgreSQL's range once more (so each is tried every run), the presets. */
const values = fc.oneof(fuzzComponent, fc.constantFrom(...fuzzEdges), fc.constantFrom("custom", "today", "true"));
const pairsOf = (names: string[]) =>
  fc.array(fc.tuple(fc.constantFrom(...names), values), { maxLength: 5 }).map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join("&"));

/** The query as Next.js hands it to a route: one value a name, or nothing when the URL does not parse. */
function paramsOf(query: string): Record<string, string> | null {
  try {
    return Object.fromEntries(new URL(`http://console.test/list?${query}`).searchParams);
  } catch {
    return null;
  }
}

const resources = Object.keys(listedResources) as ListedResource[];
const indexListQueries = fc.tuple(
  fc.constantFrom(...resources),
  pairsOf(["created", "created_from", "created_to", "page_cursor", "amount_min", "amount_max", "statuses", "has_error", "page_size", "status"]),
);
const eventsQueries = pairsOf(["from", "to", "object", "event", "outcome", "page_cursor", "page_size", "environment"]);
const viewForms = fc.record({
  name: values.map((value) => decodeURIComponentOr(value)),
  query: fc
    .tuple(fc.constantFrom("status", "created_to", "amount_min"), values)
    .map(([name, value]) => JSON.stringify({ [name]: decodeURIComponentOr(value) })),
});

function decodeURIComponentOr(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

describe.each(testDatabaseTargets)("the index's inputs under random values on $name", (target) => {
  const database = migratedConsoleDatabase(target);
  const seedObject = async () => {
    const created = new Date("2026-11-23T10:00:00Z");
    const id = `ach_${randomUUID().replaceAll("-", "")}`;
    await database.db
      .insert(schema.bankObjects)
      .values({
        environment: "sandbox",
        id,
        resource: "ach",
        state: { id, created_at: created.toISOString() },
        bankCreatedAt: created,
        bankUpdatedAt: created,
        version: 1,
      })
      .onConflictDoNothing();
  };

  it.each(fuzzSeeds)(
    "an index-served list and its count refuse a query naming a field, or run it ($name)",
    async ({ seed }) => {
      await seedObject();
      await fc.assert(
        fc.asyncProperty(indexListQueries, async ([resource, query]) => {
          const params = paramsOf(query);
          if (!params) return;
          const parsed = parseIndexListQuery(resource, params);
          if (!parsed.ok) {
            expect(parsed.error).toContain(": ");
            return;
          }
          await listFromIndex(database.db, "sandbox", resource, parsed.page);
          await countFromIndex(database.db, "sandbox", resource, parsed.page.filter);
        }),
        fuzzParameters(seed, 300, 20),
      );
    },
    120_000,
  );

  it.each(fuzzSeeds)(
    "the events page and its export refuse a query naming a field, or run it ($name)",
    async ({ seed }) => {
      await fc.assert(
        fc.asyncProperty(eventsQueries, async (query) => {
          const params = paramsOf(query);
          if (!params) return;
          const parsed = parseEventsQuery(params, "sandbox");
          if (!parsed.ok) {
            expect(parsed.error).toMatch(/^([a-z_]+: |unknown filter: )/);
            return;
          }
          await listEvents(database.db, parsed.page.filter, { limit: parsed.page.pageSize, after: parsed.page.after });
          for await (const row of everyEvent(database.db, parsed.page.filter, 5)) expect(row.id).toBeGreaterThan(0);
        }),
        fuzzParameters(seed, 300, 20),
      );
    },
    120_000,
  );

  it.each(fuzzSeeds)(
    "a saved view refuses a name or filter naming the field, or is saved ($name)",
    async ({ seed }) => {
      const owner = { id: `stf_${randomUUID()}`, email: "fuzz@bank.example" };
      await fc.assert(
        fc.asyncProperty(viewForms, async ({ name, query }) => {
          const input = savedViewInput.safeParse({ resource: "ach", name, query, columns: "{}" });
          if (!input.success) {
            expect(input.error.issues[0]!.message).toMatch(/^(name|query): /);
            return;
          }
          // A second view of a name is refused by name (409), not a database error; a full allowance by its cap.
          await createView(database.db, { ...owner, id: `${owner.id}_${randomUUID()}` }, input.data);
        }),
        fuzzParameters(seed, 200, 20),
      );
    },
    120_000,
  );

  it.each([
    ["list", { page_cursor: `ix.${Buffer.from(JSON.stringify(["2020", "x"])).toString("base64url")}` }],
    ["list", { page_cursor: `ix.${Buffer.from(JSON.stringify(["0000-01-01T00:00:00Z", "x"])).toString("base64url")}` }],
    ["list", { page_cursor: `ix.${Buffer.from(JSON.stringify(["2026-11-23T10:00:00.000000Z", "a\u0000"])).toString("base64url")}` }],
    ["list", { created: "custom", created_to: "9999-12-31" }],
    ["events", { to: "9999-12-31" }],
  ] as const)("refuses the %s query %j before the database (was a 500)", (kind, params) => {
    const parsed = kind === "list" ? parseIndexListQuery("ach", params) : parseEventsQuery(params, "sandbox");
    expect(parsed.ok).toBe(false);
  });
});
