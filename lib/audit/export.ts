import "server-only";
import { consoleDb } from "@/lib/db/console";
import { auditCsvHeader, auditCsvRow } from "./csv";
import { listAuditRecords, type AuditFilter } from "./trail";

const pageSize = 500;

/** Streams every record matching `filter` as CSV, page by page, so a large trail never sits in memory at once. */
export async function exportAuditCsv(filter: AuditFilter): Promise<Response> {
  const { db } = await consoleDb();
  const encoder = new TextEncoder();
  let after: number | undefined;
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(auditCsvHeader));
        return;
      }
      const records = await listAuditRecords(db, filter, { limit: pageSize, after });
      if (records.length > 0) controller.enqueue(encoder.encode(records.map(auditCsvRow).join("")));
      if (records.length < pageSize) controller.close();
      else after = records.at(-1)!.id;
    },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
