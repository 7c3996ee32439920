"use client";

import type { WebhookDelivery } from "@/lib/contract";

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
export function DeliveryDetails({ row }: { row: WebhookDelivery }) {
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
