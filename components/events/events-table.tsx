import type { ReactNode } from "react";
import { StatusBadge } from "@/components/bank/status-badge";
import { IdValue } from "@/components/bank/id-value";
import { ServerWhen } from "@/components/format/when";
import { RenderedTable, type RenderedColumn, type RenderedRow } from "@/components/tables/rendered-table";
import type { Tone } from "@/lib/format";
import type { EventRow } from "@/lib/index/events-list";
import type { EventOutcome } from "@/lib/index/events-list-input";
import { detailHref } from "@/lib/resources/routes";

const outcomeTones: Record<EventOutcome, Tone> = {
  pending: "info",
  error: "danger",
  changed: "success",
  unchanged: "neutral",
  older: "neutral",
  gone: "warning",
  dead_letter: "danger",
};

const columns: RenderedColumn[] = [
  { id: "received", header: "Received" },
  { id: "event", header: "Event" },
  { id: "object", header: "Object" },
  { id: "outcome", header: "Outcome" },
  { id: "deliveries", header: "Deliveries", align: "right" },
  { id: "attempts", header: "Attempts", align: "right" },
  { id: "last_received", header: "Last received" },
];

/** In the one date style and the staff member's zone; the exact second on hover, the milliseconds in the export. */
function Time({ value }: { value: string }) {
  return <ServerWhen at={value} className="text-xs tabular-nums" />;
}

function Outcome({ row }: { row: EventRow }) {
  return (
    <div className="min-w-28">
      <StatusBadge status={row.outcome} tone={outcomeTones[row.outcome]} />
      {row.error ? (
        <p className="mt-0.5 max-w-xs truncate text-xs text-red-700 dark:text-red-400" title={row.error}>
          {row.error}
        </p>
      ) : null}
      {row.nextAttemptAt && row.attempts > 0 ? (
        <p className="text-xs text-muted">
          next try <Time value={row.nextAttemptAt} />
        </p>
      ) : null}
    </div>
  );
}

/**
 * The received notifications, one row each, in the one data table. An object links to its detail page only when the
 * events are the active environment's: the detail page reads the active environment's bank.
 */
export function EventsTable({ rows, linkObjects, empty }: { rows: EventRow[]; linkObjects: boolean; empty: ReactNode }) {
  const rendered = rows.map((row): RenderedRow => ({
    id: String(row.id),
    data: { "data-testid": "event-row", "data-event-id": String(row.id), "data-object-id": row.objectId, "data-outcome": row.outcome },
    cells: {
      received: <Time value={row.receivedAt} />,
      event: <span className="font-mono text-xs">{row.event}</span>,
      object: <IdValue id={row.objectId} href={linkObjects ? detailHref(row.resource, row.objectId) : undefined} />,
      outcome: <Outcome row={row} />,
      deliveries: row.deliveries,
      attempts: row.attempts,
      last_received: <Time value={row.lastReceivedAt} />,
    },
  }));
  return (
    <RenderedTable
      list="events"
      caption="Events received, newest first"
      columns={columns}
      rows={rendered}
      testId="events-table"
      empty={<span data-testid="empty-state">{empty}</span>}
    />
  );
}
