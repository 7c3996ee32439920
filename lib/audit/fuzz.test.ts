import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { fuzzComponent, fuzzParameters, fuzzSeeds } from "@/tests/support/fuzz";
import { parseAuditQuery } from "./filter-input";
import { everyAuditRecord, listAuditRecords, recordAuditEvent } from "./trail";

// The audit page's and export's query string (lib/audit/filter-input.ts) under random and malformed values, down to
// the database on each target: either the parser refuses it (a 400 naming the field) or the query runs. Before, NUL
// in a text filter and year 0000 in a date reached PostgreSQL and came back as a 500 (the export broke mid-stream).

const names = fc.constantFrom("actor", "action", "target", "from", "to", "after", "colour");
const queries = fc.array(fc.tuple(names, fuzzComponent), { maxLength: 5 }).map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join("&"));

function searchParamsOf(query: string): URLSearchParams | null {
  try {
    return new URL(`http://console.test/audit?${query}`).searchParams;
  } catch {
    return null; // not a URL: Next.js answers 400 before the page or the route
  }
}

describe.each(testDatabaseTargets)("audit filters under random input on $name", (target) => {
  const database = migratedConsoleDatabase(target);

  it.each(fuzzSeeds)(
    "either refuse the query naming a field, or run it against the database ($name)",
    async ({ seed }) => {
      await recordAuditEvent(database.db, {
        actor: { id: "stf_fuzz", email: "fuzz@demo.bank", role: "admin" },
        environment: null,
        action: "fuzz.check",
        targetId: "t_1",
        requestId: "req_fuzz",
      });
      await fc.assert(
        fc.asyncProperty(queries, async (query) => {
          const params = searchParamsOf(query);
          if (!params) return;
          const parsed = parseAuditQuery(params);
          if (!parsed.ok) {
            expect(parsed.error).toMatch(/^(actor|action|target|from|to|after): /);
            return;
          }
          await listAuditRecords(database.db, parsed.filter, { limit: 5, after: parsed.after });
          for await (const record of everyAuditRecord(database.db, parsed.filter, 5)) expect(record.id).toBeGreaterThan(0);
        }),
        fuzzParameters(seed, 300, 20),
      );
    },
    120_000,
  );

  it.each(["actor=%00", "action=%00", "target=%00", "from=0000-01-01", "to=0000-01-01", "after=99999999999999999999"])(
    "refuses %s before the database (was a 500)",
    (query) => {
      expect(parseAuditQuery(searchParamsOf(query)!)).toMatchObject({ ok: false });
    },
  );
});
