import type { AuditRecord } from "./trail";

const columns = ["id", "at", "actorEmail", "actorId", "role", "environment", "action", "targetId", "outcome", "error", "requestId", "before", "after"] as const;

/** One CSV field per RFC 4180; a leading = + - @ is prefixed with ' so spreadsheets do not run it as a formula. */
function field(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const auditCsvHeader = `${columns.join(",")}\r\n`;

export function auditCsvRow(record: AuditRecord): string {
  return `${columns.map((column) => field(record[column])).join(",")}\r\n`;
}
