"use client";

import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { ExportOutcome } from "./export-download";

type ExportState = { step: "idle" } | { step: "running"; rows: number } | ExportOutcome;

/** The download's code, fetched ahead when the button is pointed at or focused, so a press rarely waits for it. */
const loadDownload = () => import("./export-download");

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
    const download = await loadDownload().catch(() => null);
    if (!download) {
      abort.current = null;
      setState({
        step: "failed",
        message: "The export did not start: its code did not load (the connection dropped, or the console was updated). Reload the page.",
        requestId: null,
      });
      return;
    }
    const outcome = await download.downloadExport({
      resource,
      query,
      reason: unmasked ? reason.trim() : undefined,
      signal: controller.signal,
      onRows: (rows) => setState({ step: "running", rows }),
    });
    abort.current = null;
    setState(outcome);
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
        <Button
          type="button"
          variant="secondary"
          size="compact"
          onClick={run}
          onPointerEnter={() => void loadDownload()}
          onFocus={() => void loadDownload()}
          disabled={unmasked && reason.trim() === ""}
        >
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
