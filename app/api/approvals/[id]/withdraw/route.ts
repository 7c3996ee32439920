import { apiRoute } from "@/lib/api";
import { consoleApprovalRoutes } from "@/lib/api/approval-routes";

/** POST /api/approvals/{id}/withdraw (docs/approvals.md). */
export const POST = apiRoute(consoleApprovalRoutes.withdraw);
