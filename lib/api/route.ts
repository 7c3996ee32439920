import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { withRequestId } from "@/lib/log";
import type { z } from "zod";
import type { StaffUser } from "@/lib/auth/staff-user";
import { describeIssues } from "@/lib/bank/client";
import { isBankError } from "@/lib/bank/errors";
import { parseJsonText } from "@/lib/contract/json-text";
import { can, type Permission } from "@/lib/permissions";
import { recordHttpRequest, routePattern } from "@/lib/metrics/registry";
import { setDataResponseHeaders } from "@/lib/security-headers";
import { readBoundedText } from "./bounded-body";
import { enforceRateLimit, type RateLimitName } from "./rate-limit";
import { badInput, ConsoleError, failureAnswer, forbidden, notFound, unauthorized } from "./errors";
import { checkNotCrossSite, checkSameOrigin } from "./same-origin";

export const requestIdHeader = "x-request-id";

/** What a handler gets once the wrapper has let the request through: who asks, and the validated input. */
export interface ApiCall<P = unknown, Q = unknown, B = unknown> {
  /** The HTTP request; absent when a server page reads through the route (lib/api/server-read.ts). */
  request?: Request;
  /** The raw query string, for routes that read repeated parameters themselves (the exports' filters). */
  searchParams: URLSearchParams;
  requestId: string;
  log: Logger;
  user: StaffUser;
  params: P;
  query: Q;
  body: B;
}

/**
 * One route: the permission it needs and the zod schemas of its input. `handle` returns a Response, a value sent as
 * JSON with `status` (default 200), or undefined for an empty answer with `status` (default 204).
 */
export interface RouteDefinition<P = unknown, Q = unknown, B = unknown> {
  permission: Permission;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  status?: number;
  /** A rule of lib/api/rate-limit.ts counted per signed-in user; past it the answer is 429 with `Retry-After`. */
  rateLimit?: RateLimitName;
  /** A larger cap on the request body than `maxBodyBytes`, for the one route that takes a file (a sandbox snapshot). */
  maxBodyBytes?: number;
  handle(call: ApiCall<P, Q, B>): Promise<unknown>;
}

/** Next.js passes dynamic segments as a promise; a catch-all segment is an array. */
export interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * Picks the route for a request once the caller is known to be signed in, with the path parameters it read from the
 * URL (validated against the route's `params` schema next); undefined means 404.
 */
export type RouteResolver = (match: {
  method: string;
  params: Record<string, string | string[] | undefined>;
}) => { route: RouteDefinition; params: Record<string, unknown> } | undefined;

export interface ApiDependencies {
  /** The signed-in staff user re-read from the database, or null (lib/auth/current-user.ts in the console). */
  currentUser(): Promise<StaffUser | null>;
  log: Logger;
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

function parsePart<T>(schema: z.ZodType<T> | undefined, value: unknown, part: string): T {
  if (!schema) return undefined as T;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw badInput(`Invalid ${part}: ${describeIssues(parsed.error, `(${part})`).join("; ")}`);
}

function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (name in query) throw badInput(`Invalid query: ${name} is given more than once`);
    query[name] = value;
  }
  return query;
}

/**
 * The wrapper's last step: the route's params, query and body checked against its schemas (400 naming the field),
 * then its handler. Server pages call it too (lib/api/server-read.ts), so a page's first render reads exactly what the
 * same request through `/api/...` would answer.
 */
export async function invokeRoute(
  definition: RouteDefinition,
  input: Omit<ApiCall, "params" | "query" | "body" | "searchParams"> & { params: unknown; query: Record<string, string>; body?: unknown },
): Promise<unknown> {
  const call = {
    ...input,
    searchParams: new URLSearchParams(input.query),
    params: parsePart(definition.params, input.params, "path"),
    query: parsePart(definition.query, input.query, "query"),
    body: definition.body ? parsePart(definition.body, input.body, "body") : undefined,
  };
  // Everything the handler logs, through loggers made before the request too (the bank transport's), names it.
  return withRequestId(input.requestId, () => definition.handle(call));
}

/** Far above any body the console accepts (userdata is at most 1 KB); a bigger one is refused before parsing. */
export const maxBodyBytes = 64 * 1024;

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`);

async function bodyOf(request: Request, cap: number): Promise<unknown> {
  // Refused by Content-Length unread, and read with a byte cap (a chunked body declares no length).
  const read = await readBoundedText(request, cap);
  if ("tooLarge" in read) throw new ConsoleError(413, "payload_too_large", `The request body is larger than ${sizeText(cap)}.`);
  const { text } = read;
  if (text.trim() === "") return undefined;
  // Depth and strings PostgreSQL cannot store are refused before parsing further (lib/contract/json-text.ts).
  const parsed = parseJsonText(text);
  if ("problem" in parsed) throw new ConsoleError(400, "invalid_json", `The request body is not acceptable JSON: ${parsed.problem}.`);
  return parsed.value;
}

/**
 * The console's ONE route-handler wrapper. In order: a request id (returned in `x-request-id`, on every log line);
 * the session (401); the route (404); the permission (403); for mutations, a same-origin `Origin`, for reads no
 * `Sec-Fetch-Site` of another site (403); the route's rate limit per user (429 with `Retry-After`); the params, query
 * and body against their zod schemas (400 naming the field; the handler, and so the bank, is never reached).
 * Every failure leaves as `{"error": {"code", "message"}}`; unexpected errors are logged with their stack and answered
 * with a 500 that carries only the request id.
 */
export function createApiRoute(dependencies: ApiDependencies) {
  return function apiRoute(route: RouteDefinition | RouteResolver) {
    return async function handler(request: Request, context?: RouteContext): Promise<Response> {
      const started = performance.now();
      const requestId = randomUUID();
      const url = new URL(request.url);
      const log = dependencies.log.child({ requestId });
      let userId: string | undefined;
      let showUncontracted = false;
      let segments: Record<string, string | string[] | undefined> | undefined;
      let response: Response;
      try {
        const user = await dependencies.currentUser();
        if (!user) throw unauthorized();
        userId = user.id;
        showUncontracted = can(user.role, "credentials:manage");
        segments = (await context?.params) ?? {};
        const resolved = typeof route === "function" ? route({ method: request.method, params: segments }) : { route, params: segments };
        if (!resolved) throw notFound();
        const { route: definition, params } = resolved;
        if (!can(user.role, definition.permission)) throw forbidden();
        // A change needs our own Origin; a read another site's page started is refused too, before anything is read
        // or audited (a search, a download, a masked filter leave audit records in the signed-in person's name).
        if (!safeMethods.has(request.method)) checkSameOrigin(request);
        else checkNotCrossSite(request);
        if (definition.rateLimit) await enforceRateLimit(definition.rateLimit, user.id);
        const body = definition.body ? await bodyOf(request, definition.maxBodyBytes ?? maxBodyBytes) : undefined;
        const result = await invokeRoute(definition, { request, requestId, log, user, params, query: queryOf(url), body });
        if (result instanceof Response) response = result;
        else if (result === undefined) response = new Response(null, { status: definition.status ?? 204 });
        else response = Response.json(result, { status: definition.status ?? 200 });
      } catch (error) {
        if (isBankError(error)) {
          // Expected failures: what and why in one line, without a stack.
          const status = "status" in error ? error.status : undefined;
          log.warn(
            { bank: { kind: error.kind, operation: error.operation, status, attempts: error.attempts, message: error.message } },
            "bank call failed",
          );
        }
        response = failureAnswer(error, requestId, log, "in a route handler", { showUncontracted }).toResponse();
      }
      response.headers.set(requestIdHeader, requestId);
      setDataResponseHeaders(response.headers, { url, forwardedProto: request.headers.get("x-forwarded-proto") });
      log.info(
        { method: request.method, path: url.pathname, status: response.status, ms: Math.round(performance.now() - started), userId },
        "api request",
      );
      // The route's pattern, never its ids: read from the path parameters, also for an answer given before they were.
      segments ??= (await context?.params) ?? {};
      recordHttpRequest(routePattern(url.pathname, segments), request.method, response.status, started);
      return response;
    };
  };
}
