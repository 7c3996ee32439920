import type { Hono } from "hono";
import { listQueries } from "@/lib/contract";
import type { SandboxContext } from "../context";
import { notFound } from "../http/errors";
import { listPage, objectJson } from "../http/pagination";
import { parseQuery, pathId } from "../http/request";
import { resourceSources, resourceTables, type ResourceSource, type TableResource } from "./resource-sources";
import type { AppEnv } from "./app-env";

export const jsonHeaders = { "content-type": "application/json; charset=utf-8" };

/** One object of a resource as its JSON text, or a 404 naming the resource and id. */
export async function resourceJson(ctx: SandboxContext, source: ResourceSource, id: string): Promise<string> {
  const json = await objectJson(ctx.database.pool, source, id);
  if (json === undefined) throw notFound(`No ${source.path.split("/").at(-1)} with id ${id}`);
  return json;
}

/** GET <path> (a page of the list) and GET <path>/{id} for every resource stored in a resource table. */
export function mountResourceRoutes(app: Hono<AppEnv>, ctx: SandboxContext): void {
  for (const name of Object.keys(resourceTables) as TableResource[]) {
    const source = resourceSources[name];
    const schema = listQueries[name];
    const pageUrl = `${ctx.baseUrl}${source.path}`;
    app.get(source.path, async (c) => {
      const { query, raw } = parseQuery(new URL(c.req.url), schema);
      return c.body(await listPage(ctx.database.pool, source, query, raw, pageUrl), 200, jsonHeaders);
    });
    app.get(`${source.path}/:id`, async (c) => c.body(await resourceJson(ctx, source, pathId(c)), 200, jsonHeaders));
  }
}
