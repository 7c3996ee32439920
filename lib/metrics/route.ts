import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import ipaddr from "ipaddr.js";
import type { Registry } from "prom-client";
import { ConsoleError } from "@/lib/api/errors";
import { clientAddress } from "@/lib/auth/client-address";
import type { ConsoleDb } from "@/lib/db/console-db";
import type { Logger } from "@/lib/log";
import { readStoredGauges } from "./stored-gauges";

export interface MetricsRouteDependencies {
  /** METRICS_TOKEN: set, only `Authorization: Bearer <token>` is answered; unset, only the loopback address. */
  token: string | undefined;
  trustedProxies: readonly string[];
  registry: Registry;
  db(): Promise<ConsoleDb>;
  log: Logger;
  /** How long the scrape waits for each stored group (lib/metrics/stored-gauges.ts). */
  storedReadTimeoutMs?: number;
}

/** Hashed first, so the comparison takes the same time whatever the length of what was sent. */
const digest = (value: string) => createHash("sha256").update(value).digest();

function isLoopback(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === "loopback";
}

/** Why a scrape is refused, or null to answer it: no session, like /api/health; the token or the loopback rule instead. */
function refusal(request: Request, dependencies: MetricsRouteDependencies): ConsoleError | null {
  if (dependencies.token === undefined) {
    // The address the console's server vouches for (lib/auth/client-address.ts), as the sign-in throttle reads it.
    if (isLoopback(clientAddress(request.headers.get("x-forwarded-for"), dependencies.trustedProxies))) return null;
    return new ConsoleError(403, "forbidden", "METRICS_TOKEN is not set: /api/metrics answers only requests from this machine.");
  }
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (sent === undefined) {
    return new ConsoleError(401, "unauthorized", "Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.", {
      "WWW-Authenticate": 'Bearer realm="metrics"',
    });
  }
  if (!timingSafeEqual(digest(sent), digest(dependencies.token))) return new ConsoleError(403, "forbidden", "The metrics token is not valid.");
  return null;
}

/**
 * `GET /api/metrics`: the registry in Prometheus's text format, with the stored gauges (index, approvals, reviews)
 * read from the database first; a group that cannot be read is left out and logged, the rest is still answered.
 */
export function metricsRoute(dependencies: MetricsRouteDependencies) {
  return async function GET(request: Request): Promise<Response> {
    const refused = refusal(request, dependencies);
    if (refused) return refused.toResponse();
    await readStoredGauges(dependencies.db, dependencies.registry, dependencies.log, dependencies.storedReadTimeoutMs);
    return new Response(await dependencies.registry.metrics(), {
      headers: { "Content-Type": dependencies.registry.contentType, "Cache-Control": "no-store" },
    });
  };
}
