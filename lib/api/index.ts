import "server-only";
import { getCurrentUser } from "@/lib/auth/current-user";
import { log } from "@/lib/log";
import { createApiRoute } from "./route";

export { ConsoleError, badInput, bankNotConfigured, forbidden, notFound, unauthorized, type ConsoleErrorBody } from "./errors";
export type { ApiCall, RouteDefinition, RouteResolver } from "./route";

/**
 * The wrapper every console route handler is built with:
 * `export const GET = apiRoute({ permission: "audit:read", query: schema, handle: async ({ query, user }) => ... })`.
 * See lib/api/route.ts for what it checks and in which order.
 */
export const apiRoute = createApiRoute({ currentUser: getCurrentUser, log });
