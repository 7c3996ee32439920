import { sql } from "drizzle-orm";
import type { Hono } from "hono";
import { patchNetworkTransferBody } from "@/lib/contract";
import type { SandboxContext } from "../context";
import { emitEvent } from "../events/emit";
import { notFound } from "../http/errors";
import { readJsonBody } from "../http/request";
import type { AppEnv } from "./app-env";
import { resourceSources } from "./resource-sources";
import { jsonHeaders } from "./resources";

/** PATCH /network_transfer/{id}: userdata is the only updatable field; the change emits network_transfer.update. */
export function mountNetworkTransferPatch(app: Hono<AppEnv>, ctx: SandboxContext): void {
  const source = resourceSources.network_transfer;
  app.patch(`${source.path}/:id`, async (c) => {
    const id = c.req.param("id");
    const body = await readJsonBody(c, patchNetworkTransferBody);
    const json = await ctx.db.transaction(async (tx) => {
      const result = await tx.execute<{ j: string }>(
        sql`UPDATE ${sql.raw(source.table)} SET userdata = ${JSON.stringify(body.userdata)}::jsonb, updated_at = ${ctx.now().toISOString()}::timestamptz
            WHERE id = ${id} RETURNING ${sql.raw(source.select)} AS j`,
      );
      const row = result.rows[0];
      if (!row) return undefined;
      await emitEvent(tx, { resource: "network_transfer", op: "update", id });
      return row.j;
    });
    if (json === undefined) throw notFound(`No network_transfer with id ${id}`);
    return c.body(json, 200, jsonHeaders);
  });
}
