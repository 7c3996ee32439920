import { everyAuditRecord } from "@/lib/audit/trail";
import type { Environment } from "@/lib/credentials/environments";
import { maskForViewer } from "@/lib/pii";
import { exactTime, formatDocumentTime } from "@/lib/format";
import { caseStateLabels, decisionLabels, kindLabels, markLabels, reasonCodes, type Decision, type ReviewKind } from "./codes";
import { applicantName } from "./queue";
import { reviewActionWords } from "./words";
import { indexedApplication, readCase, ReviewRefusal, type CaseView } from "./store";
import type { ConsoleDb } from "@/lib/db/console-db";

/** The one file an examiner gets of a case (docs/reviews.md): everything the console knows of how it was decided. */
export interface CaseRecord {
  format: "bank-console/review-case-record@1";
  generatedAt: string;
  generatedBy: { id: string; email: string; role: string };
  environment: Environment;
  retention: { years: number; note: string };
  /** The application as the console's index holds it, masked as staff see it (reveals are listed below). */
  application: { id: string; kind: string; bankCreatedAt: string | null; state: Record<string, unknown> | null };
  case: Omit<CaseView, "items" | "notes" | "decisions" | "documentIds" | "environment" | "applicationId" | "kind"> & { reasonLabel: string | null };
  checklist: CaseView["items"];
  notes: CaseView["notes"];
  decisions: Array<CaseView["decisions"][number] & { reasonLabel: string }>;
  /** Each reveal: who, when, the fields it showed, why, and until when the page showed them (null before expiries were recorded). */
  reveals: Array<{ at: string; actorEmail: string; role: string; fields: unknown; reason: unknown; expiresAt: unknown; requestId: string }>;
  /** Every audit record about the application (review steps, reveals, earlier downloads of this record), oldest first. */
  auditTrail: Array<{ at: string; action: string; actorEmail: string; role: string; outcome: string; error: string | null; requestId: string }>;
}

const reasonLabel = (decision: Decision | null, code: string | null) => (decision && code ? (reasonCodes[decision][code] ?? code) : null);

/** A case record, and each step of its audit trail in words for the HTML version (the JSON keeps the action codes). */
export interface BuiltCaseRecord {
  record: CaseRecord;
  /** Parallel to `record.auditTrail`. */
  steps: string[];
}

export async function buildCaseRecord(
  db: ConsoleDb,
  environment: Environment,
  applicationId: string,
  by: { id: string; email: string; role: string; retentionYears: number; now?: Date },
): Promise<BuiltCaseRecord> {
  const [application, review] = await Promise.all([indexedApplication(db, environment, applicationId), readCase(db, environment, applicationId)]);
  if (!application || !review) throw new ReviewRefusal(`application: ${applicationId} is not in the console's index of the ${environment} bank`);
  const audits = [];
  for await (const record of everyAuditRecord(db, { target: applicationId }))
    if (record.environment === environment || record.environment === null) audits.push(record);
  audits.reverse();
  const { items, notes, decisions } = review;
  const summary = {
    state: review.state,
    assigneeId: review.assigneeId,
    assigneeEmail: review.assigneeEmail,
    assignedAt: review.assignedAt,
    decision: review.decision,
    reasonCode: review.reasonCode,
    decidedAt: review.decidedAt,
  };
  const record: CaseRecord = {
    format: "bank-console/review-case-record@1",
    generatedAt: (by.now ?? new Date()).toISOString(),
    generatedBy: { id: by.id, email: by.email, role: by.role },
    environment,
    retention: {
      years: by.retentionYears,
      note: `Case records are kept for ${by.retentionYears} years after the case is decided (REVIEW_RECORD_RETENTION_YEARS); notes and decisions are never edited or deleted before then.`,
    },
    application: {
      id: applicationId,
      kind: application.kind,
      bankCreatedAt: application.createdAt?.toISOString() ?? null,
      state: application.state ? maskForViewer(application.kind, structuredClone(application.state)) : null,
    },
    case: { ...summary, reasonLabel: reasonLabel(review.decision, review.reasonCode) },
    checklist: items,
    notes,
    decisions: decisions.map((decision) => ({ ...decision, reasonLabel: reasonLabel(decision.decision, decision.reasonCode)! })),
    reveals: audits
      .filter((record) => record.action === `${application.kind}.reveal`)
      .map((record) => {
        const after = (record.after ?? {}) as { fields?: unknown; reason?: unknown; expiresAt?: unknown };
        return {
          at: record.at,
          actorEmail: record.actorEmail,
          role: record.role,
          fields: after.fields ?? null,
          reason: after.reason ?? null,
          expiresAt: after.expiresAt ?? null,
          requestId: record.requestId,
        };
      }),
    auditTrail: audits.map(({ at, action, actorEmail, role, outcome, error, requestId }) => ({
      at,
      action,
      actorEmail,
      role,
      outcome,
      error,
      requestId,
    })),
  };
  const steps = audits.map((entry) =>
    entry.action === `${application.kind}.reveal`
      ? "Personal data revealed"
      : (reviewActionWords(application.kind, entry.action, entry.after, true) ?? entry.action),
  );
  return { record, steps };
}

const escape = (value: unknown) =>
  String(value ?? "").replace(/[&<>"']/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character]!);

/** A table cell: text, a time, or an id / email / request id (the only values that may break anywhere to fit). */
type Cell = unknown | { id: unknown } | { time: string | null | undefined };
const id = (value: unknown): Cell => ({ id: value });
const isId = (cell: Cell): cell is { id: unknown } => typeof cell === "object" && cell !== null && "id" in cell;
const time = (iso: string | null | undefined): Cell => ({ time: iso });
const isTime = (cell: Cell): cell is { time: string | null | undefined } => typeof cell === "object" && cell !== null && "time" in cell;

/**
 * A time in the console's one format, the year always written (a record is read years later), in UTC as the header
 * says; the exact second is in the element (`datetime`, and the tooltip on screen), and the JSON record has it too.
 */
const at = (iso: string | null | undefined) => (iso ? formatDocumentTime(iso, "UTC") : "");
const timeElement = (iso: string | null | undefined) =>
  iso ? `<time datetime="${escape(iso)}" title="${escape(exactTime(iso, "UTC"))}">${escape(at(iso))}</time>` : "";

function cellHtml(cell: Cell): string {
  if (isId(cell)) return `<td class="id">${escape(cell.id)}</td>`;
  if (isTime(cell)) return `<td>${timeElement(cell.time)}</td>`;
  return `<td>${escape(cell)}</td>`;
}

function table(headers: string[], rows: Cell[][], empty: string): string {
  if (rows.length === 0) return `<p class="muted">${escape(empty)}</p>`;
  return `<table><thead><tr>${headers.map((header) => `<th>${escape(header)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map(cellHtml).join("")}</tr>`)
    .join("")}</tbody></table>`;
}

/**
 * The record as one self-contained HTML page (no scripts, no external resources): the page's full width on screen,
 * and on paper A4 or Letter (whichever the printer has: no fixed size) with the page number in the bottom margin.
 */
export function caseRecordHtml({ record, steps }: BuiltCaseRecord): string {
  const kase = record.case;
  const kind = record.application.kind as ReviewKind;
  const applicant = record.application.state ? applicantName(kind, record.application.state) : "(not in the index)";
  const title = `Case record ${record.application.id} · ${applicant}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>
body{font:13px/1.45 system-ui,sans-serif;color:#111;margin:1.5rem 2rem;hyphens:none}
h1{font-size:20px;margin:0 0 .25rem}h2{font-size:15px;margin:1.5rem 0 .4rem;border-bottom:1px solid #999;padding-bottom:.2rem}
table{border-collapse:collapse;width:100%;margin:.25rem 0}th,td{border:1px solid #bbb;padding:.25rem .4rem;text-align:left;vertical-align:top}
td{white-space:pre-line}.id{font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:anywhere}
th{background:#eee}.muted{color:#555}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.5rem;border:1px solid #ddd}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem}dt{color:#555}
@page{margin:16mm 14mm 18mm;@bottom-right{content:"Page " counter(page) " of " counter(pages);font:10px system-ui,sans-serif;color:#555}@bottom-left{content:"Case record ${record.application.id.replace(/[^A-Za-z0-9_-]/g, "")}";font:10px system-ui,sans-serif;color:#555}}
@media print{body{margin:0;font-size:11px}h2{break-after:avoid}tr{break-inside:avoid}thead{display:table-header-group}th{background:#eee;print-color-adjust:exact}}
</style></head><body>
<h1>${escape(title)}</h1>
<p class="muted">${escape(kindLabels[kind] ?? kind)} application · ${escape(record.environment)} environment · generated ${timeElement(record.generatedAt)} by ${escape(record.generatedBy.email)} (${escape(record.generatedBy.role)}) · times in UTC</p>
<p>The decision is the console's record; the bank's API has no decision endpoint, so it is not sent to the bank.</p>
<h2>Decision</h2>
<dl>
<dt>State</dt><dd data-field="state">${escape(caseStateLabels[kase.state])}</dd>
<dt>Decision</dt><dd data-field="decision">${escape(kase.decision ? decisionLabels[kase.decision] : "none yet")}</dd>
<dt>Reason code</dt><dd data-field="reason">${escape(kase.reasonCode ? `${kase.reasonCode}: ${kase.reasonLabel}` : "")}</dd>
<dt>Decided at</dt><dd>${timeElement(kase.decidedAt)}</dd>
<dt>Assignee</dt><dd>${escape(kase.assigneeEmail ?? "nobody")}</dd>
</dl>
<h2>Checklist</h2>
${table(
  ["Item", "Mark", "Notes", "By", "At"],
  record.checklist.map((item) => [
    item.label,
    item.mark ? markLabels[item.mark] : "Not checked",
    item.notes.map((note) => `${at(note.at)} ${note.authorEmail}: ${note.text}`).join("\n"),
    id(item.markedByEmail ?? ""),
    time(item.markedAt),
  ]),
  "",
)}
<h2>Notes</h2>
${table(
  ["At", "By", "Note"],
  record.notes.map((note) => [time(note.at), id(note.authorEmail), note.text]),
  "No notes.",
)}
<h2>Proposals and second reviews</h2>
${table(
  ["Proposed", "By", "Decision", "Reason code", "Note", "Outcome", "Second reviewer", "At", "Second review note"],
  record.decisions.map((decision) => [
    time(decision.proposedAt),
    id(decision.proposedByEmail),
    decisionLabels[decision.decision],
    `${decision.reasonCode}: ${decision.reasonLabel}`,
    decision.note,
    decision.state,
    id(decision.resolvedByEmail ?? ""),
    time(decision.resolvedAt),
    decision.resolutionNote ?? "",
  ]),
  "No decision proposed.",
)}
<h2>Reveals of personal data</h2>
${table(
  ["At", "By", "Role", "Fields shown", "Reason", "Shown until"],
  record.reveals.map((reveal) => [
    time(reveal.at),
    id(reveal.actorEmail),
    reveal.role,
    Array.isArray(reveal.fields) ? reveal.fields.join(", ") : "",
    reveal.reason ?? "(no reason recorded)",
    time(typeof reveal.expiresAt === "string" ? reveal.expiresAt : null),
  ]),
  "No reveals.",
)}
<h2>Audit trail of this application</h2>
${table(
  ["At", "Step", "By", "Role", "Outcome", "Error", "Request"],
  record.auditTrail.map((entry, index) => [
    time(entry.at),
    steps[index] ?? entry.action,
    id(entry.actorEmail),
    entry.role,
    entry.outcome,
    entry.error ?? "",
    id(entry.requestId),
  ]),
  "No records.",
)}
<h2>Application as reviewed (masked)</h2>
<pre>${escape(JSON.stringify(record.application.state, null, 2))}</pre>
<h2>Retention</h2>
<p>${escape(record.retention.note)}</p>
</body></html>
`;
}
