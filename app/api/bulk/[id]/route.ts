import { apiRoute } from "@/lib/api";
import { consoleBulkRoutes } from "@/lib/bulk/console-bulk";

/** GET /api/bulk/{id}: a bulk action's progress and each row's outcome. */
export const GET = apiRoute(consoleBulkRoutes.read);
