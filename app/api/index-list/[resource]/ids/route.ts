import { apiRoute } from "@/lib/api";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { indexListRoutes } from "@/lib/search/index-list-routes";

/**
 * GET /api/index-list/{resource}/ids?… : the ids of the objects matching a list's filters, in its order, at most 500
 * ("select all N matching", lib/search/index-list-routes.ts, docs/search.md).
 */
export const GET = apiRoute(indexListRoutes({ activeEnvironment: getActiveEnvironment, db: async () => (await consoleDb()).db }).ids);
