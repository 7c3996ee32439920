import { createLogger } from "@/lib/log";
import { rawText } from "@/sandbox/http/format";
import { defaultSandboxSettings, type SandboxContext, type SandboxSettings } from "@/sandbox/context";
import { openSandboxDatabase } from "@/sandbox/db";
import { resourceSources, type TableResource } from "@/sandbox/routes/resource-sources";
import type { TestDatabaseTarget } from "@/tests/support/databases";

/** Every object of a resource as the API renders it (the routes' own SQL rendering), newest first. */
export async function apiObjects(ctx: SandboxContext, resource: TableResource): Promise<Array<Record<string, unknown>>> {
  const source = resourceSources[resource];
  const result = await ctx.database.pool.query<string[]>({
    text: `SELECT ${source.format.columns} FROM ${source.table} ORDER BY created_at DESC, id DESC`,
    rowMode: "array",
    types: rawText,
  });
  return result.rows.map((row) => JSON.parse(source.format.render(row)) as Record<string, unknown>);
}

/** A sandbox context on a fresh database of a test target, with a clock the test moves by hand. */
export async function createTestContext(target: TestDatabaseTarget, options: { now: Date; settings?: Partial<SandboxSettings> }) {
  const created = await target.create();
  const database = await openSandboxDatabase(created.url);
  const clock = { now: new Date(options.now) };
  const ctx: SandboxContext = {
    database,
    db: database.db,
    baseUrl: "http://127.0.0.1:4010",
    settings: { ...defaultSandboxSettings, ...options.settings },
    now: () => clock.now,
    log: createLogger({ level: "silent" }),
  };
  return {
    ctx,
    clock,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}
