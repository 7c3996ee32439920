import "server-only";
import { approvalRoutes } from "@/lib/approvals/routes";
import { consoleApprovals } from "./console-bank-proxy";

/** The approvals' routes wired to the console's approvals (lib/api/console-bank-proxy.ts). */
export const consoleApprovalRoutes = approvalRoutes(() => consoleApprovals);
