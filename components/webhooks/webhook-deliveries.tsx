"use client";

import Link from "next/link";
import { Fragment, useMemo, useState } from "react";
import { ErrorState } from "@/components/bank/error-state";
import { useCan, useConsoleSession } from "@/components/console/providers";
import { lazyComponent } from "@/components/ui/lazy-component";
import { Table, Td, Th } from "@/components/ui/table";
import { nextPageCursor, useBankObject, useWebhookDeliveries } from "@/lib/bank/queries";
import type { WebhookDelivery } from "@/lib/contract";
import { detailHref, resourceForId } from "@/lib/resources/routes";
import { deliveryBuckets, describeSpan } from "@/lib/webhooks/delivery-buckets";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";

const pageSize = 25;
/** How often the table re-reads while the page is open: a webhook in trouble retries within seconds. */
const refreshMs = 5_000;

// recharts is large: it loads after the page, as on Home, so it never counts against the first-load JavaScript.
const DeliveryTimeline = lazyComponent(() => import("./delivery-timeline").then((module) => module.default), {
  ssr: false,
  fallback: <div className="h-32 animate-pulse rounded bg-surface-2" />,
});

type Outcome = "all" | "failed";
/**
 * What the proxy puts in place of a masked value (`maskedValue` of lib/pii.ts, not imported: that module's allowlists
 * would ride along into every detail page's first load; the viewer e2e test fails if the two differ).
 */
const maskedValue = "[masked]";

/** The notification as sent, indented when it is JSON (it always is; an older attempt may have none recorded). */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** One attempt's request and reply, under its row. The reply shows only to roles that manage webhooks (the proxy masks it otherwise). */
function DeliveryDetails({ row }: { row: WebhookDelivery }) {
  const reply = row.response_body;
  return (
    <div className="grid gap-3 md:grid-cols-2" data-testid="delivery-details">
      <div className="min-w-0">
        <h3 className="mb-1 text-xs font-semibold text-muted">Request</h3>
        <p className="mb-1 font-mono text-xs break-all">POST {row.url}</p>
        {row.request_body == null ? (
          <p className="text-xs text-muted">Not recorded (attempts made before the bank kept the body).</p>
        ) : (
          <pre
            className="max-h-60 overflow-auto rounded border border-line bg-surface-2 p-2 font-mono text-xs break-all whitespace-pre-wrap"
            data-testid="delivery-request-body"
          >
            {pretty(row.request_body)}
          </pre>
        )}
      </div>
      <div className="min-w-0">
        <h3 className="mb-1 text-xs font-semibold text-muted">Reply</h3>
        <p className="mb-1 text-xs">
          {row.status_code == null ? "No HTTP answer" : `HTTP ${row.status_code}`}
          {row.latency_ms == null ? "" : ` after ${row.latency_ms} ms`} ·{" "}
          {row.succeeded ? "acknowledged" : "not acknowledged (only 200 or 202 count)"}
        </p>
        {reply === maskedValue ? (
          <p className="text-xs text-muted" data-testid="delivery-reply-hidden">
            The receiver&apos;s reply is shown to roles that manage webhooks.
          </p>
        ) : reply == null ? (
          <p className="text-xs text-muted">{row.status_code == null ? (row.error ?? "No answer came.") : "Not recorded."}</p>
        ) : reply === "" ? (
          <p className="text-xs text-muted" data-testid="delivery-response-body">
            (empty body)
          </p>
        ) : (
          <pre
            className="max-h-60 overflow-auto rounded border border-line bg-surface-2 p-2 font-mono text-xs break-all whitespace-pre-wrap"
            data-testid="delivery-response-body"
          >
            {reply}
          </pre>
        )}
        {reply != null && reply !== maskedValue && reply.length >= 4096 ? (
          <p className="mt-1 text-xs text-muted">The first 4 KiB; the rest was not read.</p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A webhook's delivery attempts from `GET /webhook/{id}/deliveries`, newest first, one page at a time (the cursors
 * walked through kept here for "Newer"), all or the failed ones only (`succeeded=false`), re-read every few seconds
 * while the page is open, with a chart of the page's attempts above the table and each attempt's request and reply
 * under its row.
 */
export function WebhookDeliveries({ id }: DetailExtraProps) {
  const { environment } = useConsoleSession();
  const managesWebhooks = useCan("webhook:write");
  const [outcome, setOutcome] = useState<Outcome>("all");
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const cursor = cursors.at(-1);
  const query: Record<string, string> = {
    page_size: String(pageSize),
    ...(outcome === "failed" ? { succeeded: "false" } : {}),
    ...(cursor ? { page_cursor: cursor } : {}),
  };
  const deliveries = useWebhookDeliveries(environment, id, query, refreshMs);
  // The webhook itself is re-read on the same beat (same key as the page's header), so a webhook that enters error
  // while the page is open shows it without a reload.
  useBankObject(environment, "webhook", id, { refetchInterval: refreshMs });
  const rows = useMemo(() => deliveries.data?.data ?? [], [deliveries.data]);
  const next = nextPageCursor(deliveries.data);
  const chart = useMemo(() => deliveryBuckets(rows), [rows]);
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
                    · {rows.length === 1 ? "1 attempt" : `${rows.length} attempts`} over{" "}
                    {describeSpan(Date.parse(chart.to!) - Date.parse(chart.from!))}, per {chart.sizeLabel} (UTC)
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
            <caption className="sr-only">Delivery attempts, newest first</caption>
            <thead className="bg-surface-2">
              <tr>
                <Th>Time (UTC)</Th>
                <Th>Event</Th>
                <Th>Object</Th>
                <Th>Attempt</Th>
                <Th>HTTP status</Th>
                <Th>Latency</Th>
                <Th>Error</Th>
                <Th>
                  <span className="sr-only">Request and reply</span>
                </Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rows.length === 0 ? (
                <tr>
                  <Td colSpan={8} className="text-muted">
                    {deliveries.isPending ? "Loading…" : outcome === "failed" ? "No failed delivery attempts." : "No delivery attempts yet."}
                  </Td>
                </tr>
              ) : (
                rows.map((row) => {
                  const resource = resourceForId(row.object_id);
                  const href = resource ? detailHref(resource.name, row.object_id) : null;
                  const expanded = open.has(row.id);
                  return (
                    <Fragment key={row.id}>
                      <tr data-testid="delivery-row" data-succeeded={row.succeeded}>
                        <Td className="font-mono text-xs whitespace-nowrap">{row.attempted_at}</Td>
                        <Td className="font-mono text-xs">{row.event}</Td>
                        <Td className="font-mono text-xs">
                          {href ? (
                            <Link href={href} className="link">
                              {row.object_id}
                            </Link>
                          ) : (
                            row.object_id
                          )}
                        </Td>
                        <Td>{row.attempt}</Td>
                        <Td className={row.succeeded ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}>
                          {row.status_code ?? "no answer"}
                        </Td>
                        <Td className="whitespace-nowrap">{row.latency_ms == null ? "n/a" : `${row.latency_ms} ms`}</Td>
                        <Td className="max-w-xs text-xs break-words">{row.error ?? ""}</Td>
                        <Td>
                          <button
                            type="button"
                            className="rounded border border-line px-2 py-0.5 text-xs whitespace-nowrap hover:bg-surface-2"
                            aria-expanded={expanded}
                            aria-controls={`delivery-${row.id}`}
                            onClick={() => toggle(row.id)}
                            data-testid="delivery-toggle"
                          >
                            {expanded ? "Hide" : managesWebhooks ? "Payload and reply" : "Payload"}
                          </button>
                        </Td>
                      </tr>
                      {expanded ? (
                        <tr id={`delivery-${row.id}`} className="bg-surface-2/40">
                          <Td colSpan={8}>
                            <DeliveryDetails row={row} />
                          </Td>
                        </tr>
                      ) : null}
                    </Fragment>
                  );
                })
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
