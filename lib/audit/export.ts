import "server-only";
import { consoleDb } from "@/lib/db/console";
import { csvResponse } from "@/lib/csv/csv-stream";
import { auditCsv } from "./csv";
import { everyAuditRecord, type AuditFilter } from "./trail";

/** Streams every record matching `filter` as CSV, page by page, so a large trail never sits in memory at once. */
export async function exportAuditCsv(filter: AuditFilter): Promise<Response> {
  const { db } = await consoleDb();
  return csvResponse(auditCsv(everyAuditRecord(db, filter)), "audit");
}
