import type { ReactNode } from "react";
import { StatusBadge } from "@/components/bank/status-badge";
import { IdValue } from "@/components/bank/id-value";
import { ServerWhen } from "@/components/format/when";
import { Table, Td, Th } from "@/components/ui/table";
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

/** In the one date style and the staff member's zone; the exact second on hover, the milliseconds in the export. */
function Time({ value }: { value: string }) {
  return <ServerWhen at={value} className="text-xs whitespace-nowrap tabular-nums" />;
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
 * The received notifications, one row each. An object links to its detail page only when the events are the active
 * environment's: the detail page reads the active environment's bank.
 */
export function EventsTable({ rows, linkObjects, empty }: { rows: EventRow[]; linkObjects: boolean; empty: ReactNode }) {
  return (
    <Table data-testid="events-table">
      <thead className="bg-surface-2">
        <tr>
          <Th>Received</Th>
          <Th>Event</Th>
          <Th>Object</Th>
          <Th>Outcome</Th>
          <Th className="text-right">Deliveries</Th>
          <Th className="text-right">Attempts</Th>
          <Th>Last received</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {rows.length === 0 ? (
          <tr>
            <Td colSpan={7} className="py-8 text-center text-muted" data-testid="empty-state">
              {empty}
            </Td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr
              key={row.id}
              className="[&>td]:align-middle"
              data-testid="event-row"
              data-event-id={row.id}
              data-object-id={row.objectId}
              data-outcome={row.outcome}
            >
              <Td>
                <Time value={row.receivedAt} />
              </Td>
              <Td className="font-mono text-xs whitespace-nowrap">{row.event}</Td>
              <Td>
                <IdValue id={row.objectId} href={linkObjects ? detailHref(row.resource, row.objectId) : undefined} />
              </Td>
              <Td>
                <Outcome row={row} />
              </Td>
              <Td className="text-right tabular-nums">{row.deliveries}</Td>
              <Td className="text-right tabular-nums">{row.attempts}</Td>
              <Td>
                <Time value={row.lastReceivedAt} />
              </Td>
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}
