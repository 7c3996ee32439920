import { apiRoute } from "@/lib/api";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { resolveNameRoute } from "@/lib/search/resolve-names";

/** GET /api/search/names?for=counterparty&q=… : the ids a typed name may mean for an id filter, through the search (lib/search/resolve-names.ts). */
export const GET = apiRoute(resolveNameRoute({ activeEnvironment: getActiveEnvironment, db: async () => (await consoleDb()).db }));
