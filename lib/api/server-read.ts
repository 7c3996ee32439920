import "server-only";
import { randomUUID } from "node:crypto";
import type { StaffUser } from "@/lib/auth/staff-users";
import { log } from "@/lib/log";
import { can } from "@/lib/permissions";
import { consoleBankProxy } from "./console-bank-proxy";
import { asConsoleError, ConsoleError, forbidden, notFound, type ConsoleErrorBody } from "./errors";
import { invokeRoute } from "./route";

export type ServerRead<T> = { ok: true; data: T } | { ok: false; status: number; error: ConsoleErrorBody["error"] };

/**
 * A bank read for a server-rendered page, through the very route `/api/bank<apiPath>` serves (same permission, same
 * validation, same masking, same `page_next` rewriting), so the first HTML shows exactly what the browser would get
 * from the proxy and the hydrated cache can be trusted. Failures come back as the proxy's error body, never thrown.
 */
export async function readThroughProxy<T = unknown>(user: StaffUser, apiPath: string, query: Record<string, string> = {}): Promise<ServerRead<T>> {
  const requestId = randomUUID();
  const requestLog = log.child({ requestId, page: true });
  try {
    const resolved = consoleBankProxy({ method: "GET", params: { path: apiPath.split("/").filter(Boolean) } });
    if (!resolved) throw notFound();
    if (!can(user.role, resolved.route.permission)) throw forbidden();
    const request = new Request(`http://console.internal/api/bank${apiPath}`);
    const data = await invokeRoute(resolved.route, { request, requestId, log: requestLog, user, params: resolved.params, query });
    return { ok: true, data: data as T };
  } catch (error) {
    const known = asConsoleError(error);
    if (!known) requestLog.error({ err: error }, "unexpected error reading the bank for a page");
    const failure = known ?? new ConsoleError(500, "internal_error", `Something went wrong in the console. Quote request id ${requestId} to an admin.`);
    return { ok: false, status: failure.status, error: { code: failure.code, message: failure.message } };
  }
}
