"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { createRecordCounter } from "@/lib/csv/record-counter";

type ExportState =
  | { step: "idle" }
  | { step: "running"; rows: number }
  | { step: "done"; rows: number }
  | { step: "failed"; message: string; requestId: string | null };

/** The list's own paging is not a filter: an export always covers the whole filtered list (the route refuses a cursor). */
const pagingParameters = new Set(["page_cursor", "page_size"]);

function exportUrl(resource: string, query: Record<string, string>): string {
  const filters = new URLSearchParams(Object.entries(query).filter(([name, value]) => !pagingParameters.has(name) && value !== ""));
  const search = filters.toString();
  return `/api/export/${encodeURIComponent(resource)}${search ? `?${search}` : ""}`;
}

/** The console's `{"error": {"code", "message"}}`, or a plain sentence when the body is something else. */
async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === "string") return body.error.message;
  } catch {
    // Not JSON: fall through to the status.
  }
  return `The export failed (HTTP ${response.status}).`;
}

function fileName(response: Response, resource: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
  return match?.[1] ?? `${resource}.csv`;
}

function save(parts: BlobPart[], name: string) {
  const url = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  // The click has started the download from the Blob; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * "Export CSV" for a bank list: every row of the list under its current filters (`query`, the list's own query),
 * streamed by /api/export/<resource>, counted live as it arrives, then saved as a file. Masked by default; a role
 * that may reveal personal data (`canReveal`) can ask for it unmasked, which the server audits as such. A download
 * that stops midway is reported and nothing is saved, so a partial file never passes for the whole list.
 */
export function ExportCsvButton({ resource, query, canReveal }: { resource: string; query: Record<string, string>; canReveal: boolean }) {
  const [state, setState] = useState<ExportState>({ step: "idle" });
  const [unmasked, setUnmasked] = useState(false);
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const abort = useRef<AbortController | null>(null);
  const checkboxId = useId();

  async function run() {
    const controller = new AbortController();
    abort.current = controller;
    setState({ step: "running", rows: 0 });
    let requestId: string | null = null;
    try {
      // An unmasked export is a reveal: it carries the reason, which the server audits with it (docs/reviews.md).
      const response = await fetch(
        exportUrl(resource, query),
        unmasked
          ? {
              method: "POST",
              signal: controller.signal,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ reason: reason.trim() }),
            }
          : { method: "GET", signal: controller.signal },
      );
      requestId = response.headers.get("x-request-id");
      if (!response.ok || !response.body) {
        setState({ step: "failed", message: await errorMessage(response), requestId });
        return;
      }
      const reader = response.body.getReader();
      const counter = createRecordCounter();
      const parts: BlobPart[] = [];
      let rows = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        parts.push(chunk.value);
        // The header is a record too.
        rows = Math.max(0, counter.push(chunk.value) - 1);
        setState({ step: "running", rows });
      }
      save(parts, fileName(response, resource));
      setState({ step: "done", rows });
    } catch {
      const message = controller.signal.aborted
        ? "Export canceled; nothing was saved."
        : "The export stopped before its end (the connection or the bank failed); nothing was saved. Try again.";
      setState({ step: "failed", message, requestId });
    } finally {
      abort.current = null;
    }
  }

  const running = state.step === "running";
  return (
    <div className="flex flex-wrap items-center gap-3">
      {canReveal ? (
        <label htmlFor={checkboxId} className="inline-flex items-center gap-1.5 text-xs font-medium text-fg">
          <input
            id={checkboxId}
            type="checkbox"
            className="h-4 w-4 rounded border-line"
            checked={unmasked}
            disabled={running}
            onChange={(event) => setUnmasked(event.target.checked)}
          />
          Unmasked (audited)
        </label>
      ) : null}
      {canReveal && unmasked ? (
        <span className="inline-flex items-center gap-1.5 text-xs">
          <label htmlFor={reasonId} className="font-medium text-fg">
            Reason
          </label>
          <input
            id={reasonId}
            required
            maxLength={500}
            value={reason}
            disabled={running}
            onChange={(event) => setReason(event.target.value)}
            placeholder="why, or a ticket reference"
            className="w-48 rounded border border-line bg-surface px-1.5 py-0.5 text-xs"
          />
        </span>
      ) : null}
      {running ? (
        <Button type="button" variant="secondary" size="compact" onClick={() => abort.current?.abort()}>
          Cancel export
        </Button>
      ) : (
        <Button type="button" variant="secondary" size="compact" onClick={run} disabled={unmasked && reason.trim() === ""}>
          Export CSV
        </Button>
      )}
      <p aria-live="polite" className="text-sm text-muted" data-testid="export-progress">
        {state.step === "running" ? `Exporting… ${state.rows.toLocaleString("en-US")} rows so far` : null}
        {state.step === "done" ? `Exported ${state.rows.toLocaleString("en-US")} rows` : null}
      </p>
      {state.step === "failed" ? (
        <p
          role="alert"
          className="w-full rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
          data-testid="export-error"
        >
          {state.message}
          {state.requestId ? <span className="block text-xs text-red-700">Request id: {state.requestId}</span> : null}
        </p>
      ) : null}
    </div>
  );
}
