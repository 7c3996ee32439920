"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { ErrorState } from "@/components/bank/error-state";
import { useConsoleSession } from "@/components/console/providers";
import { Table, Td, Th } from "@/components/ui/table";
import { bankApiPath, fetchConsole, type BankPage } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import type { WebhookDelivery } from "@/lib/contract";
import { detailHref, resourceForId } from "@/lib/resources";
import type { DetailExtraProps } from "@/components/bank/detail-extras";

/** One delivery attempt as the contract defines it (a type-only import: no schema code reaches the browser). */
export type Delivery = WebhookDelivery;

const pageSize = 25;
/** How often the table re-reads while the page is open: a webhook in trouble retries within seconds. */
const refreshMs = 5_000;

// recharts is large: it loads after the page, as on Home, so it never counts against the first-load JavaScript.
const DeliveryTimeline = dynamic(() => import("./delivery-timeline"), { ssr: false, loading: () => <div className="h-32 animate-pulse rounded bg-surface-2" /> });

/**
 * A webhook's delivery attempts from `GET /webhook/{id}/deliveries`, newest first, one page at a time (the cursors
 * walked through kept here for "Newer"), re-read every few seconds while the page is open, with a timeline of the
 * page's successes and failures above the table.
 */
export function WebhookDeliveries({ id }: DetailExtraProps) {
  const { environment } = useConsoleSession();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const query: Record<string, string> = { page_size: String(pageSize), ...(cursor ? { page_cursor: cursor } : {}) };
  const deliveries = useQuery({
    queryKey: bankKeys.deliveries(environment, id, query),
    queryFn: () => fetchConsole<BankPage<Delivery>>(bankApiPath(`/webhook/${encodeURIComponent(id)}/deliveries`, query)),
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  });
  // The webhook itself is re-read on the same beat (same key as the page's header), so a webhook that enters error
  // while the page is open shows it without a reload.
  useQuery({
    queryKey: bankKeys.detail(environment, "webhook", id),
    queryFn: () => fetchConsole<Record<string, unknown>>(bankApiPath(`/webhook/${encodeURIComponent(id)}`)),
    refetchInterval: refreshMs,
  });
  const rows = deliveries.data?.data ?? [];
  const next = deliveries.data?.page_next ? new URL(deliveries.data.page_next, "http://console").searchParams.get("page_cursor") : null;

  return (
    <section aria-labelledby="deliveries-title" data-testid="webhook-deliveries" className="mt-4 rounded-md border border-line bg-surface p-3">
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="deliveries-title" className="text-xs font-semibold uppercase tracking-wide text-muted">
          Delivery attempts
        </h2>
        <p className="text-xs text-muted" aria-live="polite">
          {deliveries.isFetching ? "Refreshing…" : `Refreshes every ${refreshMs / 1000} s`}
        </p>
      </div>
      {deliveries.error ? (
        <ErrorState error={deliveries.error} subject="the delivery attempts" onRetry={() => void deliveries.refetch()} />
      ) : (
        <>
          {rows.length > 0 ? <DeliveryTimeline deliveries={rows} /> : null}
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
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rows.length === 0 ? (
                <tr>
                  <Td colSpan={7} className="text-muted">
                    {deliveries.isPending ? "Loading…" : "No delivery attempts yet."}
                  </Td>
                </tr>
              ) : (
                rows.map((row) => {
                  const resource = resourceForId(row.object_id);
                  const href = resource ? detailHref(resource.name, row.object_id) : null;
                  return (
                    <tr key={row.id} data-testid="delivery-row" data-succeeded={row.succeeded}>
                      <Td className="whitespace-nowrap font-mono text-xs">{row.attempted_at}</Td>
                      <Td className="font-mono text-xs">{row.event}</Td>
                      <Td className="font-mono text-xs">{href ? <Link href={href} className="text-accent hover:underline">{row.object_id}</Link> : row.object_id}</Td>
                      <Td>{row.attempt}</Td>
                      <Td className={row.succeeded ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}>{row.status_code ?? "no answer"}</Td>
                      <Td className="whitespace-nowrap">{row.latency_ms == null ? "n/a" : `${row.latency_ms} ms`}</Td>
                      <Td className="max-w-xs break-words text-xs">{row.error ?? ""}</Td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </Table>
          <nav aria-label="Delivery pages" className="mt-2 flex gap-2 text-xs">
            <button type="button" className="rounded border border-line px-2.5 py-1 disabled:opacity-40" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer
            </button>
            <button type="button" className="rounded border border-line px-2.5 py-1 disabled:opacity-40" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
