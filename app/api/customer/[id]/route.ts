import { apiRoute } from "@/lib/api";
import { getActiveEnvironment } from "@/lib/credentials";
import { customerRoute } from "@/lib/customer/routes";
import { consoleDb } from "@/lib/db/console";

/** GET /api/customer/{cp_id}?page_cursor=… : a counterparty's money movements and totals from the index (lib/customer/routes.ts). */
export const GET = apiRoute(customerRoute({ activeEnvironment: getActiveEnvironment, db: async () => (await consoleDb()).db }));
