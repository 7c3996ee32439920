import "server-only";
import type { ApiCall } from "@/lib/api";
import { consoleDb } from "@/lib/db/console";
import { csvResponse } from "@/lib/csv/csv-stream";
import { auditedCsvExport } from "@/lib/export/audited-csv";
import { audited } from "@/lib/audit";
import { auditCsvColumns } from "./csv";
import { everyAuditRecord, type AuditFilter } from "./trail";

/**
 * Streams every record matching `filter` as CSV, page by page, so a large trail never sits in memory at once. Taking
 * the trail out of the console is itself recorded (`audit.export`, with its filters, then its row count or why it
 * stopped), like every bank export: the record is written before the first row is read.
 */
export async function exportAuditCsv(filter: AuditFilter, call: Pick<ApiCall, "user" | "requestId" | "log">): Promise<Response> {
  const { db } = await consoleDb();
  const body = await auditedCsvExport(audited, {
    entry: {
      actor: { id: call.user.id, email: call.user.email, role: call.user.role },
      environment: null,
      action: "audit.export",
      targetId: null,
      before: { filters: filter },
      requestId: call.requestId,
    },
    columns: auditCsvColumns,
    open: async () => everyAuditRecord(db, filter),
    log: call.log,
  });
  return csvResponse(body, "audit");
}
