import "server-only";
import Link from "next/link";
import { listAuditRecords, type AuditRecord } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-users";
import { consoleDb } from "@/lib/db/console";
import { jsonDiff } from "@/lib/json-diff";
import { can } from "@/lib/permissions";

const shown = 20;
const outcomeColour = { succeeded: "text-emerald-700 dark:text-emerald-400", failed: "text-red-700 dark:text-red-400", pending: "text-amber-700 dark:text-amber-400" } as const;

/**
 * "History": the audit records whose target is this object, newest first, read on the server for the page.
 * Every role that may read the object sees who did what when, and the outcome. What changed (the records' before and
 * after) only shows to roles holding `audit:read`: the audit trail keeps bank objects unmasked, so showing it to
 * everyone would undo the masking; those roles also get the link into the audit log. (docs/console-actions.md)
 */
export async function HistoryPanel({ user, targetId }: { user: StaffUser; targetId: string }) {
  const withChanges = can(user.role, "audit:read");
  let records: AuditRecord[];
  try {
    records = await listAuditRecords((await consoleDb()).db, { target: targetId }, { limit: shown + 1 });
  } catch {
    return (
      <HistoryFrame targetId={targetId} withLink={withChanges}>
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          The audit trail could not be read, so this object&apos;s history is not shown.
        </p>
      </HistoryFrame>
    );
  }
  return (
    <HistoryFrame targetId={targetId} withLink={withChanges}>
      {records.length === 0 ? (
        <p className="text-sm text-muted">Nothing has been changed or revealed here through the console.</p>
      ) : (
        <ol className="divide-y divide-line text-sm" data-testid="history-records">
          {records.slice(0, shown).map((record) => (
            <li key={record.id} className="py-2" data-testid="history-record" data-action={record.action} data-outcome={record.outcome}>
              <p className="flex flex-wrap gap-x-3">
                <time dateTime={record.at} className="font-mono text-xs text-muted">
                  {record.at}
                </time>
                <span className="font-mono text-xs">{record.action}</span>
                <span>
                  {record.actorEmail} <span className="text-muted">({record.role})</span>
                </span>
                <span className={outcomeColour[record.outcome]}>{record.outcome}</span>
              </p>
              {record.error ? <p className="text-xs text-red-700 dark:text-red-300">{record.error}</p> : null}
              {withChanges ? <Changes record={record} /> : null}
            </li>
          ))}
        </ol>
      )}
      {records.length > shown ? <p className="mt-2 text-xs text-muted">Showing the newest {shown}.</p> : null}
    </HistoryFrame>
  );
}

function HistoryFrame({ targetId, withLink, children }: { targetId: string; withLink: boolean; children: React.ReactNode }) {
  return (
    <section id="history" aria-labelledby="history-title" data-testid="history-panel" className="mt-4 rounded-md border border-line bg-surface p-3">
      <div className="mb-2 flex items-baseline justify-between gap-2">
        <h2 id="history-title" className="text-xs font-semibold uppercase tracking-wide text-muted">
          History
        </h2>
        {withLink ? (
          <Link href={`/audit?${new URLSearchParams({ target: targetId })}`} className="text-xs text-accent hover:underline">
            All records in the audit log
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

/** What a change did, field by field; a record without a before (a create, a reveal) shows nothing here. */
function Changes({ record }: { record: AuditRecord }) {
  if (record.before == null || record.after == null) return null;
  const changes = jsonDiff(record.before, record.after).filter((change) => change.path !== "updated_at");
  if (changes.length === 0) return null;
  const text = (value: unknown) => (value === undefined ? "(absent)" : JSON.stringify(value));
  return (
    <ul className="mt-1 space-y-0.5 font-mono text-xs" data-testid="history-changes">
      {changes.map((change) => (
        <li key={change.path} className="break-all">
          {change.path || "(whole value)"}: <span className="text-muted">{text(change.before)}</span> → {text(change.after)}
        </li>
      ))}
    </ul>
  );
}
