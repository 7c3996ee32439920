import { apiRoute } from "@/lib/api";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { indexListRoutes } from "@/lib/search/index-list-routes";

/**
 * GET /api/index-list/{resource}/count?… : how many objects match a list's filters, from the console's index
 * (lib/search/index-list-routes.ts, docs/search.md).
 */
export const GET = apiRoute(indexListRoutes({ activeEnvironment: getActiveEnvironment, db: async () => (await consoleDb()).db }).count);
