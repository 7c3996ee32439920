import { apiRoute, badInput } from "@/lib/api";
import { exportAuditCsv } from "@/lib/audit/export";
import { parseAuditQuery } from "@/lib/audit/filter-input";

/** GET /api/audit/export?actor=&action=&target=&from=&to= : the filtered audit trail as CSV (admin, compliance). */
export const GET = apiRoute({
  permission: "audit:read",
  async handle({ request }) {
    const parsed = parseAuditQuery(new URL(request.url).searchParams);
    if (!parsed.ok) throw badInput(parsed.error);
    return exportAuditCsv(parsed.filter);
  },
});
