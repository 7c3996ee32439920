"use client";

import { useEffect, useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { useConsoleSession } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { bulkActions, bulkActionsFor, type BulkActionName } from "@/lib/bulk/codes";
import { BulkConfirm } from "./bulk-confirm";
import { BulkProgress } from "./bulk-progress";
import { useStartBulk } from "./bulk-queries";
import { downloadSelection } from "./export-selection";

/**
 * The job shown is named in the URL's fragment (`#bulk=<id>`): kept on reload and in history, never sent as a list
 * filter (a query parameter would be: lib/resources/list-state.ts passes every other one to the bank).
 */
const fragmentPrefix = "#bulk=";

function useJobInUrl(): [string | null, (id: string | null) => void] {
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    const read = () =>
      setId(window.location.hash.startsWith(fragmentPrefix) ? decodeURIComponent(window.location.hash.slice(fragmentPrefix.length)) : null);
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  const write = (next: string | null) => {
    const url = new URL(window.location.href);
    url.hash = next ? `bulk=${encodeURIComponent(next)}` : "";
    // No state of our own: the App Router then takes the URL as its own (a later refresh of the list keeps it).
    window.history.replaceState(null, "", url);
  };
  // A change of the list's filters is a new URL without the fragment: it is put back while the job is shown.
  useEffect(() => {
    if (id && window.location.hash !== `${fragmentPrefix}${encodeURIComponent(id)}`) write(id);
  });
  const show = (next: string | null) => {
    write(next);
    setId(next);
  };
  return [id, show];
}

/**
 * The bar over a list with selected rows: what is selected and the bulk actions the role may take on `resource`
 * (a resource name of lib/resources, or "review" for the review queue), and the progress of the bulk action started
 * from it, which runs on the server (lib/bulk) and is shown again when the page is opened with its `#bulk=<id>`.
 * Renders nothing while no row is selected and no bulk action is shown.
 */
export function BulkBar({ resource, ids, onClear }: { resource: string; ids: string[]; onClear(): void }) {
  const { permissions } = useConsoleSession();
  const [jobId, showJob] = useJobInUrl();
  const [asking, setAsking] = useState<BulkActionName | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);
  const start = useStartBulk((job) => {
    setAsking(null);
    showJob(job.id);
  });
  const offered = bulkActionsFor(resource).filter((action) => permissions.includes(bulkActions[action].permission));
  if (ids.length === 0 && !jobId) return null;
  return (
    <div className="w-full space-y-2">
      {ids.length > 0 ? (
        <div
          role="region"
          aria-label="Selected rows"
          data-resource={resource}
          className="flex flex-wrap items-center gap-2 rounded-md border border-line bg-surface-2 px-3 py-2 text-sm"
        >
          <span aria-live="polite" className="font-medium">
            {ids.length} selected
          </span>
          {offered.map((action) => (
            <Button
              key={action}
              variant="secondary"
              size="compact"
              onClick={() => {
                start.reset();
                setAsking(action);
              }}
            >
              {bulkActions[action].label}
            </Button>
          ))}
          {resource !== "review" ? (
            <Button
              variant="secondary"
              size="compact"
              disabled={exporting}
              onClick={() => {
                setExporting(true);
                setExportError(null);
                downloadSelection(resource, ids)
                  .catch(setExportError)
                  .finally(() => setExporting(false));
              }}
            >
              {exporting ? "Exporting…" : "Export CSV"}
            </Button>
          ) : null}
          <Button variant="secondary" size="compact" onClick={onClear}>
            Clear selection
          </Button>
          <ActionError error={exportError} testId="bulk-export-error" />
        </div>
      ) : null}
      {asking ? (
        <BulkConfirm
          action={asking}
          resource={resource}
          ids={ids}
          pending={start.isPending}
          error={start.error}
          onConfirm={(request) => start.mutate(request)}
          onCancel={() => setAsking(null)}
        />
      ) : null}
      {jobId ? <BulkProgress id={jobId} onClose={() => showJob(null)} /> : null}
    </div>
  );
}
