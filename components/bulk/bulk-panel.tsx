"use client";

import { useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { useConsoleSession } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { bulkActions, bulkActionsFor, type BulkActionName } from "@/lib/bulk/codes";
import { BulkConfirm } from "./bulk-confirm";
import { BulkProgress } from "./bulk-progress";
import { useStartBulk } from "./bulk-queries";
import { downloadSelection } from "./export-selection";

/**
 * What BulkBar shows once rows are selected or a job is named (its own chunk, components/bulk/bulk-bar.tsx): the
 * count, the bulk actions the role may take on `resource`, their confirmation, and the job's progress.
 */
export function BulkPanel({
  resource,
  ids,
  onClear,
  jobId,
  showJob,
}: {
  resource: string;
  ids: string[];
  onClear(): void;
  jobId: string | null;
  showJob(id: string | null): void;
}) {
  const { permissions } = useConsoleSession();
  const [asking, setAsking] = useState<BulkActionName | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);
  const start = useStartBulk((job) => {
    setAsking(null);
    showJob(job.id);
  });
  const offered = bulkActionsFor(resource).filter((action) => permissions.includes(bulkActions[action].permission));
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
