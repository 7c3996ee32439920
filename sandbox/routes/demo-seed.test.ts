import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listedResources } from "@/lib/contract";
import { testDatabaseTargets } from "@/tests/support/databases";
import { startSandbox, type RunningSandbox } from "../server";
import { demoKey, sandboxClient } from "@/tests/support/sandbox-client";
import { resourceTables } from "./resource-sources";

describe.each(testDatabaseTargets)("the demo data set served over HTTP on $name", (target) => {
  let sandbox: RunningSandbox;
  let drop: () => Promise<void>;
  let request: ReturnType<typeof sandboxClient>;

  beforeAll(async () => {
    const database = await target.create();
    drop = database.drop;
    sandbox = await startSandbox({ databaseUrl: database.url, seed: "demo", demoKey });
    request = sandboxClient(sandbox.url, demoKey.id, demoKey.secret);
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    await drop?.();
  });

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
