import "server-only";
import { randomUUID } from "node:crypto";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { ListedResource } from "@/lib/contract/operations";
import { log } from "@/lib/log";
import { can } from "@/lib/permissions";
import { consoleBankProxy } from "./console-bank-proxy";
import { failureAnswer, forbidden, notFound, type ConsoleErrorBody } from "./errors";
import { invokeRoute } from "./route";

export type ServerRead<T> = { ok: true; data: T } | { ok: false; status: number; error: ConsoleErrorBody["error"] };

/** The bank reads a server page may make: a resource's list, one of its objects, or a webhook's delivery attempts. */
export type ReadOperationId = `list_${ListedResource}` | `get_${ListedResource}` | "list_webhook_deliveries";

/**
 * A bank read for a server-rendered page, by operation, through the very route `/api/bank/...` serves (same
 * permission, same validation, same masking, same `page_next` rewriting), so the first HTML shows exactly what the
 * browser would get from the proxy and the hydrated cache can be trusted. Failures come back as the proxy's error
 * body, never thrown.
 */
export async function readThroughProxy<T = unknown>(
  user: StaffUser,
  operationId: ReadOperationId,
  input: { params?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<ServerRead<T>> {
  const requestId = randomUUID();
  const requestLog = log.child({ requestId, page: true });
  try {
    const route = consoleBankProxy.readRoute(operationId);
    if (!route) throw notFound(`The console does not expose ${operationId}.`);
    if (!can(user.role, route.permission)) throw forbidden();
    const data = await invokeRoute(route, { requestId, log: requestLog, user, params: input.params ?? {}, query: input.query ?? {} });
    return { ok: true, data: data as T };
  } catch (error) {
    const failure = failureAnswer(error, requestId, requestLog, "reading the bank for a page", {
      showUncontracted: can(user.role, "credentials:manage"),
    });
    return { ok: false, status: failure.status, error: { code: failure.code, message: failure.message } };
  }
}
