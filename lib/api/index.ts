import "server-only";
import { accessCache } from "@/lib/auth/console-access";
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
const route = createApiRoute({ currentUser: getCurrentUser, log });
// Each request's lookups of the user and the bank client share one read of the access version.
export const apiRoute: typeof route = (definition) => {
  const handler = route(definition);
  return (request, context) => accessCache.request(() => handler(request, context));
};
