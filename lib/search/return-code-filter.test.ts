import { beforeAll, describe, expect, it } from "vitest";
import type { ListedResource } from "@/lib/contract/operations";
import { achReturnCodeOf, explainFailure } from "@/lib/contract/reason-codes";
import { runBackfill } from "@/lib/index/backfill";
import { createLogger } from "@/lib/log";
import { migratedConsoleDatabase } from "@/tests/support/console-database";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxBankForFile } from "@/tests/support/sandbox-bank";
import { listFromIndex } from "./index-list";
import { parseIndexListQuery } from "./index-list-input";
import { mayFilterBy } from "./masked-filters";

// The return-code filter (`return_code`, an index filter: the bank's lists cannot filter by it) gives exactly what a
// brute-force filter of the bank's full list by the code gives, in the bank's order, page after page; and each returned
// transfer's code, read from the bank's own field, is the code the filter found it under (docs/return-codes.md).

const key = { id: "key_return_code_test", secret: "return-code-test-secret-0123456789" };
const fixture = sandboxBankForFile(key);
const log = createLogger({ level: "silent" });

type Row = Record<string, unknown>;

async function everyObject(resource: ListedResource): Promise<Row[]> {
  const objects: Row[] = [];
  for await (const page of fixture.bank.resources.listPages(resource, { page_size: 1000 })) objects.push(...page.data);
  return objects;
}

/** The code a failed ACH transfer or instant payment carries, read as the bank answers it. */
const codeOf = (resource: ListedResource, object: Row) =>
  resource === "ach" ? achReturnCodeOf(object.error) : ((object.external_reject_reason as { code?: string } | null)?.code ?? null);

describe.each(testDatabaseTargets)("the return-code filter on $name", (target) => {
  const database = migratedConsoleDatabase(target);
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

  beforeAll(async () => {
    await runBackfill({ db: database.db, client: fixture.bank, environment: "sandbox", pageSize: 500, pagesPerSecond: 0, log });
  }, 120_000);

  it.each(["ach", "fednow"] as const)("every code of %s the bank's list carries finds exactly its objects, in the bank's order", async (resource) => {
    const all = await everyObject(resource);
    const codes = [...new Set(all.map((object) => codeOf(resource, object)).filter((code): code is string => code !== null))];
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      const expected = all.filter((object) => codeOf(resource, object) === code).map((object) => object.id);
      expect(await walk(resource, { return_code: code, page_size: "7" }), code).toEqual(expected);
    }
  });

  it("a returned ACH transfer explains its own code; a code nobody was returned with finds nothing", async () => {
    const returned = (await everyObject("ach")).filter((ach) => ach.status === "returned");
    expect(returned.length).toBeGreaterThan(0);
    for (const ach of returned) expect(explainFailure("ach", ach)?.code).toBe(codeOf("ach", ach));
    expect(await walk("ach", { return_code: "R99" })).toEqual([]);
  });

  it("every role may filter by it, as by has_error: the code is part of the error every role sees", () => {
    for (const role of ["viewer", "operations", "compliance", "admin"] as const) {
      expect(mayFilterBy("ach", role, "return_code"), role).toBe(true);
      expect(mayFilterBy("fednow", role, "return_code"), role).toBe(true);
    }
  });

  it("refuses a malformed code and a kind without codes, naming the filter", () => {
    expect(parseIndexListQuery("ach", { return_code: "r01; drop" })).toEqual({
      ok: false,
      error: "return_code: expected a code such as R01 or AC04",
    });
    expect(parseIndexListQuery("network_transfer", { return_code: "R01" })).toEqual({
      ok: false,
      error: "return_code: only ACH transfers and instant payments carry one",
    });
  });
});
