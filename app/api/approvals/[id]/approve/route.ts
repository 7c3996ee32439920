import { apiRoute } from "@/lib/api";
import { consoleApprovalRoutes } from "@/lib/api/approval-routes";

/** POST /api/approvals/{id}/approve (docs/approvals.md). */
export const POST = apiRoute(consoleApprovalRoutes.approve);
