import { describe, expect, it } from "vitest";
import { listedResources } from "@/lib/contract";
import { testDatabaseTargets } from "@/tests/support/databases";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { resourceTables } from "./resource-sources";

describe.each(testDatabaseTargets)("the demo data set served over HTTP on $name", (target) => {
  const { request } = sandboxOnDatabase(target, { seed: "demo" });

  it.each(Object.keys(resourceTables) as (keyof typeof resourceTables)[])("every %s object matches the contract", async (name) => {
    const { path, schema } = listedResources[name];
    const page = (await request(`${path}?page_size=1000`)).body as { data: unknown[] };
    expect(page.data.length).toBeGreaterThan(0);
    for (const object of page.data) expect(schema.safeParse(object).error?.issues ?? []).toEqual([]);
  });

  it("spans several pages of ACH transfers at the default page size", async () => {
    const first = (await request("/ach")).body as { data: unknown[]; page_next?: string };
    expect(first.data).toHaveLength(100);
    expect(first.page_next).toBeDefined();
  });
});
