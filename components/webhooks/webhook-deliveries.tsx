"use client";

import { useMemo, useState } from "react";
import { ErrorState } from "@/components/bank/error-state";
import { useCan, useConsoleSession } from "@/components/console/providers";
import { lazyComponent } from "@/components/ui/lazy-component";
import { Table, Td, Th } from "@/components/ui/table";
import { nextPageCursor, useBankObject, useWebhookDeliveries } from "@/lib/bank/queries";
import { deliveryBuckets, describeSpan } from "@/lib/webhooks/delivery-buckets";
import { deliveriesQuery, type DeliveryOutcome } from "@/lib/webhooks/deliveries-query";
import { groupByNotification } from "@/lib/webhooks/notifications";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { NotificationRow, notificationColumns } from "./notification-row";

/** How often the table re-reads while the page is open: a webhook in trouble retries within seconds. */
const refreshMs = 5_000;

// recharts is large: it loads after the page, as on Home, so it never counts against the first-load JavaScript.
const DeliveryTimeline = lazyComponent(() => import("./delivery-timeline").then((module) => module.default), {
  ssr: false,
  fallback: <div className="h-32 animate-pulse rounded bg-surface-2" />,
});

/**
 * A webhook's delivery attempts from `GET /webhook/{id}/deliveries`, newest first, one page at a time (the cursors
 * walked through kept here for "Newer"), all or the failed ones only (`succeeded=false`), re-read every few seconds
 * while the page is open, with a chart of the page's attempts above the table. The first page comes with the page's
 * HTML (read by the server), so the History below never moves down when it arrives. The table groups the attempts under the
 * notification they belong to (lib/webhooks/notifications.ts): one row each, its attempts and the latest one's request
 * and reply under it, and for roles that manage webhooks a Resend (./send-now-button.tsx).
 */
export function WebhookDeliveries({ id, object }: DetailExtraProps) {
  const { environment } = useConsoleSession();
  const managesWebhooks = useCan("webhook:write");
  const [outcome, setOutcome] = useState<DeliveryOutcome>("all");
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const deliveries = useWebhookDeliveries(environment, id, deliveriesQuery(outcome, cursors.at(-1)), refreshMs);
  // The webhook itself is re-read on the same beat (same key as the page's header), so a webhook that enters error
  // while the page is open shows it without a reload.
  useBankObject(environment, "webhook", id, { refetchInterval: refreshMs });
  const rows = useMemo(() => deliveries.data?.data ?? [], [deliveries.data]);
  const next = nextPageCursor(deliveries.data);
  const chart = useMemo(() => deliveryBuckets(rows), [rows]);
  const notifications = useMemo(() => groupByNotification(rows), [rows]);
  const toggle = (rowId: string) =>
    setOpen((current) => {
      const changed = new Set(current);
      if (!changed.delete(rowId)) changed.add(rowId);
      return changed;
    });

  return (
    <section aria-labelledby="deliveries-title" data-testid="webhook-deliveries" className="mt-4 rounded-md border border-line bg-surface p-3">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="deliveries-title" className="text-xs font-semibold tracking-wide text-muted uppercase">
          Delivery attempts
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <fieldset className="flex items-center gap-1 text-xs" data-testid="delivery-outcome">
            <legend className="sr-only">Outcome</legend>
            {(
              [
                ["all", "All"],
                ["failed", "Failed only"],
              ] as const
            ).map(([value, label]) => (
              <label
                key={value}
                className={`cursor-pointer rounded border px-2.5 py-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent ${
                  outcome === value ? "border-accent bg-accent/10 font-medium" : "border-line"
                }`}
              >
                <input
                  type="radio"
                  name={`delivery-outcome-${id}`}
                  value={value}
                  checked={outcome === value}
                  onChange={() => {
                    setOutcome(value);
                    setCursors([]);
                  }}
                  className="sr-only"
                />
                {label}
              </label>
            ))}
          </fieldset>
          <p className="text-xs text-muted" aria-live="polite">
            {deliveries.isFetching ? "Refreshing…" : `Refreshes every ${refreshMs / 1000} s`}
          </p>
        </div>
      </div>
      {deliveries.error ? (
        <ErrorState error={deliveries.error} subject="the delivery attempts" onRetry={() => void deliveries.refetch()} />
      ) : (
        <>
          <div className="mb-3">
            <p className="mb-1 text-xs" data-testid="delivery-summary">
              {rows.length === 0 ? (
                <span className="text-muted">{outcome === "failed" ? "No failed attempts on this page." : "No attempts yet."}</span>
              ) : (
                <>
                  <span className="font-medium text-emerald-700 dark:text-emerald-400">{chart.delivered} delivered</span> ·{" "}
                  <span className="font-medium text-red-700 dark:text-red-400">{chart.failed} failed</span>
                  <span className="text-muted">
                    {" "}
                    · {rows.length === 1 ? "1 attempt" : `${rows.length} attempts`} of{" "}
                    {notifications.length === 1 ? "1 notification" : `${notifications.length} notifications`} over{" "}
                    {describeSpan(Date.parse(chart.to!) - Date.parse(chart.from!))}, per {chart.sizeLabel}
                  </span>
                </>
              )}
            </p>
            {/* The chart's height is reserved while the attempts load and while recharts loads: nothing below moves then. */}
            {rows.length > 0 ? (
              <DeliveryTimeline chart={chart} />
            ) : deliveries.isPending ? (
              <div className="h-32 animate-pulse rounded bg-surface-2" aria-hidden="true" />
            ) : null}
          </div>
          <Table data-testid="deliveries-table">
            <caption className="sr-only">Notifications, the one with the newest attempt first</caption>
            <thead className="bg-surface-2">
              <tr>
                <Th>Last attempt</Th>
                <Th>Event</Th>
                <Th>Object</Th>
                <Th>Attempts</Th>
                <Th>HTTP status</Th>
                <Th>Latency</Th>
                <Th>Error</Th>
                <Th>
                  <span className="sr-only">Attempts, request, reply and resend</span>
                </Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {notifications.length === 0 ? (
                <tr>
                  <Td colSpan={notificationColumns} className="text-muted">
                    {deliveries.isPending ? "Loading…" : outcome === "failed" ? "No failed delivery attempts." : "No delivery attempts yet."}
                  </Td>
                </tr>
              ) : (
                notifications.map((group) => (
                  <NotificationRow
                    key={group.notificationId}
                    group={group}
                    webhookId={id}
                    webhookUrl={String(object.url)}
                    expanded={open.has(group.notificationId)}
                    onToggle={() => toggle(group.notificationId)}
                    managesWebhooks={managesWebhooks}
                  />
                ))
              )}
            </tbody>
          </Table>
          <nav aria-label="Delivery pages" className="mt-2 flex flex-wrap gap-2 text-xs">
            <button
              type="button"
              className="rounded border border-line px-2.5 py-1 disabled:opacity-40"
              disabled={cursors.length === 0}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Newer
            </button>
            <button
              type="button"
              className="rounded border border-line px-2.5 py-1 disabled:opacity-40"
              disabled={!next}
              onClick={() => next && setCursors([...cursors, next])}
            >
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
