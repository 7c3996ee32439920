import { csvStream } from "@/lib/csv/csv-stream";
import type { AuditRecord } from "./trail";

export const auditCsvColumns = ["id", "at", "actorEmail", "actorId", "role", "environment", "action", "targetId", "outcome", "error", "requestId", "before", "after"] as const;

/** Audit records as CSV, one row per record in the order given (the shared writer's cell rules: lib/csv). */
export const auditCsv = (records: AsyncIterable<AuditRecord>) => csvStream(records, { columns: auditCsvColumns });
