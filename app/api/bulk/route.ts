import { apiRoute } from "@/lib/api";
import { consoleBulkRoutes } from "@/lib/bulk/console-bulk";

/** POST /api/bulk: a bulk action, 202 with its job (docs/console-actions.md, "Bulk actions"). */
export const POST = apiRoute(consoleBulkRoutes.create);
