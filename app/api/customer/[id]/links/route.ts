import { apiRoute } from "@/lib/api";
import { getActiveEnvironment } from "@/lib/credentials";
import { customerLinksRoute } from "@/lib/customer/routes";
import { consoleDb } from "@/lib/db/console";

/** GET /api/customer/{apsn_…|abus_…}/links : what the index links to a person or a business (lib/customer/routes.ts). */
export const GET = apiRoute(customerLinksRoute({ activeEnvironment: getActiveEnvironment, db: async () => (await consoleDb()).db }));
