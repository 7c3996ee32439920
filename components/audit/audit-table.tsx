import Link from "next/link";
import { FieldDiff, RecordedFields } from "@/components/bank/field-diff";
import { CopyButton } from "@/components/bank/copy-button";
import { IdValue } from "@/components/bank/id-value";
import { RenderedTable, type RenderedColumn, type RenderedRow } from "@/components/tables/rendered-table";
import { auditActionWords } from "@/lib/audit/action-words";
import type { AuditFilter, AuditRecord } from "@/lib/audit/trail";
import { When } from "@/components/format/when";
import { enumWords, shortId } from "@/lib/format";
import { recordChanges } from "@/lib/json-diff";
import { detailHref, resourceOfRecord } from "@/lib/resources/routes";

const outcomeColour = {
  succeeded: "text-emerald-700 dark:text-emerald-400",
  failed: "text-red-700 dark:text-red-400",
  pending: "text-amber-700 dark:text-amber-400",
} as const;

/** Changed fields shown before the rest fold away, so a create's whole object does not make a row a page tall. */
const visibleChanges = 4;

const columns: RenderedColumn[] = [
  { id: "time", header: "Time" },
  { id: "actor", header: "Actor" },
  { id: "action", header: "Action" },
  { id: "target", header: "Target" },
  { id: "outcome", header: "Outcome" },
  { id: "changes", header: "Changes" },
  { id: "request", header: "Request" },
];

/** The object a record is about: its target, or for a create (written before the bank named it) the id in its `after`. */
function targetOf(record: AuditRecord): string | null {
  if (record.targetId) return record.targetId;
  const after = record.after as { id?: unknown } | null;
  return after && typeof after === "object" && typeof after.id === "string" ? after.id : null;
}

/** The action as recorded, with a break after each dot, never inside a word: "network_transfer.<wbr>userdata.<wbr>update". */
function ActionCode({ action }: { action: string }) {
  return (
    <span className="font-mono text-xs text-muted" data-testid="audit-action">
      {action.split(".").map((part, index, parts) => (
        <span key={index}>
          {part}
          {index < parts.length - 1 ? (
            <>
              .<wbr />
            </>
          ) : null}
        </span>
      ))}
    </span>
  );
}

/** One record's cells: when, who, what, the object it was about, how it ended, what changed, the request id. */
function recordRow(record: AuditRecord, zone: string, environment: string): RenderedRow {
  const target = targetOf(record);
  const words = auditActionWords(record.action);
  const resource = resourceOfRecord(record.action, target);
  const linked = target && resource && record.environment === environment ? detailHref(resource, target) : undefined;
  return {
    id: String(record.id),
    data: { "data-testid": "audit-row", "data-record": String(record.id), "data-action": record.action },
    cells: {
      time: <When at={record.at} zone={zone} relative="below" className="tabular-nums" />,
      actor: (
        <span className="block max-w-[14rem]" data-testid="audit-actor">
          <span className="block truncate" title={record.actorEmail} data-testid="audit-actor-email">
            {record.actorEmail}
          </span>
          <span className="block text-xs text-muted" data-testid="audit-actor-role">
            {record.role}
          </span>
        </span>
      ),
      action: (
        <span className="block max-w-[16rem] min-w-40 whitespace-normal">
          {words ? (
            <span className="block" data-testid="audit-action-words">
              {words}
            </span>
          ) : null}
          <ActionCode action={record.action} />
          {record.environment ? (
            <span className="block text-xs text-muted" title={`environment: ${record.environment}`}>
              {enumWords(record.environment)}
            </span>
          ) : null}
        </span>
      ),
      target: <span data-testid="audit-target">{target ? <IdValue id={target} href={linked} full /> : <span className="text-muted">—</span>}</span>,
      outcome: (
        <span className={`block ${outcomeColour[record.outcome]}`} data-testid="audit-outcome">
          {record.outcome}
          {record.error ? <span className="block max-w-[16rem] text-xs whitespace-normal">{record.error}</span> : null}
        </span>
      ),
      changes: (
        <div className="max-w-[36rem] min-w-[18rem] whitespace-normal">
          <Changes record={record} resource={resource} zone={zone} />
        </div>
      ),
      request: (
        <span data-testid="audit-request">
          <span className="font-mono text-xs" title={record.requestId} data-request-id={record.requestId}>
            {shortId(record.requestId)}
          </span>
          <CopyButton value={record.requestId} label="Copy request id" />
        </span>
      ),
    },
  };
}

/**
 * The audit log's rows in the one data table: when (in the staff member's zone, the exact second on hover), who,
 * what, the object it was about (linked to its page while its environment is the active one, since detail pages read
 * the active bank), how it ended, what changed as the same field diff the Timeline shows, and the request id to copy.
 */
export function AuditTable({ records, zone, environment }: { records: AuditRecord[]; zone: string; environment: string }) {
  return (
    <RenderedTable
      list="audit"
      caption="Audit records, newest first"
      columns={columns}
      rows={records.map((record) => recordRow(record, zone, environment))}
      testId="audit-table"
      empty="No audit records match."
    />
  );
}

function Changes({ record, resource, zone }: { record: AuditRecord; resource: ReturnType<typeof resourceOfRecord>; zone: string }) {
  const changes = recordChanges(record.before, record.after);
  if (changes.length === 0) {
    // Nothing changed in what was recorded (the same object before and after): show what it was about, unchanged.
    const recorded = record.after ?? record.before;
    if (recorded === null || recorded === undefined) return <span className="text-xs text-muted">no fields recorded</span>;
    if (typeof recorded !== "object" || Array.isArray(recorded))
      return <span className="font-mono text-xs break-all">{JSON.stringify(recorded)}</span>;
    return (
      <>
        <span className="text-xs text-muted">recorded, unchanged:</span>
        <RecordedFields
          value={recorded as Record<string, unknown>}
          resource={resource}
          zone={zone}
          visible={visibleChanges}
          testId="audit-recorded"
        />
      </>
    );
  }
  return <FieldDiff changes={changes} resource={resource} zone={zone} visible={visibleChanges} testId="audit-changes" itemTestId="audit-change" />;
}

/** The active filters as chips; each one's × drops it (a link, so it works as the form does, without JavaScript). */
export function AuditFilterChips({ filter }: { filter: AuditFilter }) {
  const labels: Record<string, string> = {
    actor: "Actor",
    action: "Action",
    target: "Target",
    from: "From (UTC)",
    to: "To (UTC)",
    searches: "Search records",
  };
  const active = Object.entries(filter).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "");
  if (active.length === 0) return null;
  const without = (name: string) => {
    const query = new URLSearchParams(active.filter(([key]) => key !== name));
    return query.size > 0 ? `/audit?${query}` : "/audit";
  };
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 text-xs" data-testid="audit-filter-chips">
      {active.map(([name, value]) => (
        <Link
          key={name}
          href={without(name)}
          data-testid="filter-chip"
          aria-label={`Remove filter: ${labels[name] ?? name} ${value}`}
          className="max-w-full rounded-full border border-line bg-surface-2 px-2 py-0.5 break-all hover:border-line-strong"
        >
          {labels[name] ?? name}: <span className="font-mono">{value}</span> ×
        </Link>
      ))}
      <Link href="/audit" className="link">
        Clear filters
      </Link>
    </div>
  );
}
