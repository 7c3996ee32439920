import { sql } from "drizzle-orm";
import type { Hono } from "hono";
import { patchNetworkTransferBody } from "@/lib/contract";
import type { SandboxContext } from "../context";
import { changeAndEmit } from "../events/emit";
import { notFound } from "../http/errors";
import { pathId, readJsonBody } from "../http/request";
import type { AppEnv } from "./app-env";
import { resourceSources } from "./resource-sources";
import { jsonHeaders, resourceJson } from "./resources";

/** PATCH /network_transfer/{id}: userdata is the only updatable field; the change emits network_transfer.update. */
export function mountNetworkTransferPatch(app: Hono<AppEnv>, ctx: SandboxContext): void {
  const source = resourceSources.network_transfer;
  app.patch(`${source.path}/:id`, async (c) => {
    const id = pathId(c);
    const body = await readJsonBody(c, patchNetworkTransferBody);
    const [updated] = await changeAndEmit(
      ctx.db,
      sql`UPDATE ${sql.raw(source.table)} SET userdata = ${JSON.stringify(body.userdata)}::jsonb, updated_at = ${ctx.now().toISOString()}::timestamptz
          WHERE id = ${id} RETURNING id`,
      { resource: "network_transfer", op: "update" },
    );
    if (!updated) throw notFound(`No network_transfer with id ${id}`);
    // Read once committed, rendered like every other answer (the latest state, as the spec's Events section says).
    return c.body(await resourceJson(ctx, source, id), 200, jsonHeaders);
  });
}
