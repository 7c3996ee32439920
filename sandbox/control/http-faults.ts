import { setTimeout as sleep } from "node:timers/promises";
import type { HttpBindings } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";
import type { SandboxContext } from "../context";
import { ApiError } from "../http/errors";
import { isNeverFaulted } from "@/lib/contract/sandbox-control";
import { faultsOf } from "./faults";

const statusMessages = { 429: "Too many requests", 500: "Internal error in the bank", 503: "Service unavailable" } as const;

/**
 * Applies the HTTP faults set with POST /sandbox/faults (./faults.ts) to the API's requests, after the credentials
 * are checked: waits `latency_ms` before the real answer, then closes the connection without an answer (`drop`) or
 * answers `status` with the contract's error body (and `Retry-After`) instead of the real answer.
 */
export function httpFaults(ctx: SandboxContext): MiddlewareHandler {
  const faults = faultsOf(ctx);
  return async (c, next) => {
    if (isNeverFaulted(c.req.path)) return next();
    const fault = faults.takeForRequest(c.req.method, c.req.path, ctx.now());
    if (!fault) return next();
    if (fault.latency_ms !== null) await sleep(fault.latency_ms);
    if (fault.drop) {
      // The client sees its connection closed, as when a load balancer or the bank's process dies mid-request.
      const socket = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket;
      if (!socket) throw new Error("dropping a connection needs the Node server's socket (c.env.incoming)");
      socket.destroy();
      return c.body(null, 503);
    }
    if (fault.status !== null) {
      const headers: Record<string, string> = fault.retry_after === null ? {} : { "retry-after": String(fault.retry_after) };
      throw new ApiError(fault.status, `${statusMessages[fault.status]} (sandbox fault ${fault.id})`, headers);
    }
    return next();
  };
}
