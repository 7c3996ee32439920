import type { Hono } from "hono";
import { getTableColumns } from "drizzle-orm";
import { matchedRoutes } from "hono/route";
import { z } from "zod";
import { idPrefixes, isStorableInstant, listedResources, userdataInput } from "@/lib/contract";
import type { SandboxContext } from "../context";
import { emitEvent, newId } from "../events/emit";
import { badRequest, describeZodError, notFound } from "../http/errors";
import { methodsByPath } from "../http/known-paths";
import { readJsonBody } from "../http/request";
import type { AppEnv } from "../routes/app-env";
import { resourceSources, resourceTables } from "../routes/resource-sources";
import { jsonHeaders, resourceJson } from "../routes/resources";
import { wholeSeconds } from "../seed/shared";
import { creatable, timestampText, type CreatableResource, type Fields } from "./create-defaults";
import { controlOperations, type ControlOperation } from "./openapi-paths";
import { movableResources } from "./transition";

/**
 * `POST /sandbox/{resource}`: creates an object the API has no create for, with the fields given and defaults for the
 * rest, as the bank would (an id of its own, created_at and updated_at from the sandbox clock, `<resource>.create`
 * emitted in the same transaction), and answers it as its GET does. Every given field is checked by the contract's
 * own schema (lib/contract), and the whole object again once defaulted, so nothing is stored that GET could not answer.
 */

/** Set by the bank for every object: its id, and its times from the sandbox clock. */
const alwaysSetByBank = ["id", "created_at", "updated_at"];
/** numeric(20,2): at most 18 digits before the point. */
const maxWholeDigits = 18;

/** The body a create accepts: any field of the contract's object but those the bank sets, each checked by its schema. */
export function bodySchema(resource: CreatableResource) {
  const setByBank = [...alwaysSetByBank, ...creatable[resource].setByBank];
  const fields = Object.entries(listedResources[resource].schema.shape as Record<string, z.ZodType>)
    .filter(([name]) => !setByBank.includes(name))
    .map(([name, schema]) => [name, (name === "userdata" ? userdataInput.nullable() : schema).optional()]);
  return { setByBank, schema: z.strictObject(Object.fromEntries(fields)) };
}

/** The row to insert: timestamps as instants, every value checked against what its column can hold. */
function rowOf(resource: CreatableResource, object: Fields): Fields {
  const columns: Record<string, { columnType: string }> = getTableColumns(resourceTables[resource]);
  return Object.fromEntries(
    Object.entries(object).map(([name, value]) => {
      const type = columns[name]?.columnType;
      if (type === "PgNumeric" && String(value).split(".")[0]!.length > maxWholeDigits) {
        throw badRequest(`${name} must have at most ${maxWholeDigits} digits before the decimal point`);
      }
      if (type !== "PgTimestamp" || value === null) return [name, value];
      const instant = new Date(String(value));
      if (Number.isNaN(instant.getTime()) || timestampText(instant) !== value || !isStorableInstant(instant)) {
        throw badRequest(`${name}: ${String(value)} is not a real instant`);
      }
      return [name, instant];
    }),
  );
}

function mountCreate(app: Hono<AppEnv>, ctx: SandboxContext, resource: CreatableResource): void {
  const source = resourceSources[resource];
  const { setByBank, schema } = bodySchema(resource);
  const contractSchema = listedResources[resource].schema;
  app.post(`/sandbox${source.path}`, async (c) => {
    const raw = await readJsonBody(c, z.record(z.string(), z.unknown(), { error: "the body must be a JSON object" }));
    const refused = Object.keys(raw).find((name) => setByBank.includes(name));
    if (refused) {
      const moved = movableResources.includes(resource as never) ? `; move it with POST /sandbox/${resource}/{id}/transition` : "";
      throw badRequest(`${refused} is set by the bank: a new ${resource} starts as the bank starts it${moved}`);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw badRequest(describeZodError(parsed.error));
    const given = parsed.data as Fields;
    const now = wholeSeconds(ctx.now());
    const id = newId(idPrefixes[resource].slice(0, -1));
    const object = {
      id,
      created_at: timestampText(now),
      updated_at: timestampText(now),
      ...(await creatable[resource].defaults(ctx, given, now)),
      ...given,
    };
    const checked = contractSchema.safeParse(object);
    if (!checked.success) throw badRequest(describeZodError(checked.error));
    const row = rowOf(resource, object);
    await ctx.db.transaction(async (tx) => {
      await tx.insert(resourceTables[resource]).values(row as never);
      await emitEvent(tx, { resource, op: "create", id });
    });
    return c.body(await resourceJson(ctx, source, id), 201, jsonHeaders);
  });
}

/** Mounts `POST /sandbox/{resource}` for each resource the API cannot create, and the 404 naming them. */
export function mountCreates(app: Hono<AppEnv>, ctx: SandboxContext): void {
  for (const resource of Object.keys(creatable) as CreatableResource[]) mountCreate(app, ctx, resource);
  const creatablePaths = (Object.keys(creatable) as CreatableResource[]).map((resource) => resourceSources[resource].path.slice(1));
  // Every feature's module is loaded by now (sandbox/control/index.ts imports them all before mounting any).
  const controlPathMethods = methodsByPath(controlOperations);
  app.post("/sandbox/*", async (c, next) => {
    // Another control route (reset, faults, ...) answers this path: leave it to that route; a control path that
    // answers other methods only (GET /sandbox/clock) is left to the app's 405.
    if (matchedRoutes(c).some((route) => route.method === "POST" && route.path !== "/sandbox/*")) return next();
    if (controlPathMethods(c.req.path)) return next();
    throw notFound(
      `No sandbox resource at ${c.req.path}: POST /sandbox/{resource} creates ${creatablePaths.join(", ")}; ` +
        `POST /sandbox/{resource}/{id}/transition moves ${movableResources.join(", ")}`,
    );
  });
}

/** The OpenAPI document's entries for these creates (sandbox/openapi.ts lists them under the sandbox tag). */
controlOperations.push(
  ...(Object.keys(creatable) as CreatableResource[]).map((resource): ControlOperation => ({
    method: "post",
    path: `/sandbox${listedResources[resource].path}`,
    operationId: `sandbox_create_${resource}`,
    summary: `Create a ${resource.replaceAll("_", " ")} with the fields given and defaults for the rest`,
    description: `Fires ${resource}.create. The fields the bank sets (id, times, and a transfer's status) are refused. See docs/sandbox-control.md.`,
    body: bodySchema(resource).schema,
    response: { status: 201, description: "The object as its GET answers it", schema: listedResources[resource].schema },
  })),
);
