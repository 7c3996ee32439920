import { apiRoute } from "@/lib/api";
import { consoleApprovalRoutes } from "@/lib/api/approval-routes";

/** PUT /api/approvals/settings `{environment, required}`: four-eyes on or off for one environment (docs/approvals.md). */
export const PUT = apiRoute(consoleApprovalRoutes.setting);
