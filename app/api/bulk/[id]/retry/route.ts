import { apiRoute } from "@/lib/api";
import { consoleBulkRoutes } from "@/lib/bulk/console-bulk";

/** POST /api/bulk/{id}/retry: sends a bulk action's refused, failed and unknown rows again. */
export const POST = apiRoute(consoleBulkRoutes.retry);
