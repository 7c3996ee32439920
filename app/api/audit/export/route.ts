import { apiRoute, badInput } from "@/lib/api";
import { exportAuditCsv } from "@/lib/audit/export";
import { parseAuditQuery } from "@/lib/audit/filter-input";

/**
 * GET /api/audit/export?actor=&action=&target=&from=&to=&searches=hidden : the filtered audit trail as CSV (admin, compliance), the
 * export itself audited (`audit.export`).
 */
export const GET = apiRoute({
  permission: "audit:read",
  async handle(call) {
    const parsed = parseAuditQuery(call.searchParams);
    if (!parsed.ok) throw badInput(parsed.error);
    return exportAuditCsv(parsed.filter, call);
  },
});
