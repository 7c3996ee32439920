import { z } from "zod";
import type { RouteDefinition } from "@/lib/api/route";
import { opaqueId } from "@/lib/contract";
import { bulkActionNames, bulkLimit, type BulkActionName } from "./codes";
import type { BulkService } from "./service";

/**
 * The bulk actions' route handlers (docs/console-actions.md, "Bulk actions"), on the one route wrapper:
 * `POST /api/bulk` → 202 with the job, `GET /api/bulk/{id}` → its progress and rows, `POST /api/bulk/{id}/retry`.
 * The wrapper asks for `bank:read`; the service then checks the action's own permission (403) before reading anything.
 */

const bulkBody = z.strictObject(
  {
    action: z.enum(bulkActionNames as [BulkActionName, ...BulkActionName[]], { error: `action: expected one of ${bulkActionNames.join(", ")}` }),
    resource: z.string({ error: "resource: expected the resource name the action acts on" }),
    ids: z
      .array(opaqueId, { error: "ids: expected a list of object ids" })
      .min(1, "ids: select at least one row")
      .max(bulkLimit, `ids: at most ${bulkLimit} rows at a time`),
    key: z.string().max(100, "key: at most 100 characters").optional(),
    value: z.unknown().optional(),
    reviewer: z.string().max(254).optional(),
  },
  { error: 'expected {"action", "resource", "ids": [...]} and the action\'s arguments' },
);

const idParams = z.strictObject({ id: z.uuid({ error: "id: expected a bulk action id" }) });

export function bulkRoutes(service: () => BulkService) {
  const create: RouteDefinition<unknown, unknown, z.infer<typeof bulkBody>> = {
    permission: "bank:read",
    body: bulkBody,
    status: 202,
    handle: ({ user, body, requestId }) => service().create(user, requestId, body),
  };
  const read: RouteDefinition<z.infer<typeof idParams>> = {
    permission: "bank:read",
    params: idParams,
    handle: ({ user, params }) => service().view(user, params.id),
  };
  const retry: RouteDefinition<z.infer<typeof idParams>> = {
    permission: "bank:read",
    params: idParams,
    handle: ({ user, params }) => service().retry(user, params.id),
  };
  return { create, read, retry } as Record<"create" | "read" | "retry", RouteDefinition>;
}
