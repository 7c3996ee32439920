"use client";

import Link from "next/link";
import { ActionError } from "@/components/actions/action-feedback";
import { Button } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import { bulkActions, retriedStates, rowStateLabels, settledCount, type BulkJobView, type RowState } from "@/lib/bulk/codes";
import { useBulkJob, useRetryBulk } from "./bulk-queries";

const tones: Record<RowState, string> = {
  pending: "text-muted",
  sending: "text-muted",
  done: "text-emerald-700 dark:text-emerald-400",
  refused: "text-red-700 dark:text-red-300",
  failed: "text-red-700 dark:text-red-300",
  skipped: "text-amber-800 dark:text-amber-300",
  unknown: "text-amber-800 dark:text-amber-300",
};

function headline(job: BulkJobView): string {
  const label = bulkActions[job.action].label;
  if (job.status === "awaiting_approval") return `${label}: awaiting approval, nothing sent yet`;
  if (job.status === "closed") return `${label}: not approved, nothing sent`;
  if (job.status === "running") return `${label}: ${settledCount(job.counts)} of ${job.total} settled`;
  return `${label}: finished, ${job.counts.done} of ${job.total} done`;
}

/** A bulk action's progress bar, its counts, and each row's outcome; "Retry failed rows" once it has finished. */
export function BulkProgress({ id, onClose }: { id: string; onClose(): void }) {
  const job = useBulkJob(id);
  const retry = useRetryBulk(id);
  if (job.error) return <ActionError error={job.error} testId="bulk-error" />;
  if (!job.data) return <p className="text-sm text-muted">Reading the bulk action…</p>;
  const data = job.data;
  const settled = settledCount(data.counts);
  const retriable = retriedStates.reduce((sum, state) => sum + data.counts[state], 0);
  return (
    <section
      aria-labelledby={`bulk-${id}`}
      data-testid="bulk-progress"
      data-status={data.status}
      className="space-y-2 rounded-md border border-line bg-surface p-3"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`bulk-${id}`} className="text-sm font-semibold">
          {headline(data)}
        </h2>
        <Button variant="secondary" size="compact" onClick={onClose}>
          Close
        </Button>
      </div>
      {data.changeRequest && data.status === "awaiting_approval" ? (
        <p className="text-sm">
          One change request holds the whole set:{" "}
          <Link href={data.changeRequest.url} className="font-medium underline">
            request {data.changeRequest.id}
          </Link>
          . It is sent once another person approves it.
        </p>
      ) : null}
      <div
        role="progressbar"
        aria-label="Rows settled"
        aria-valuemin={0}
        aria-valuemax={data.total}
        aria-valuenow={settled}
        aria-valuetext={`${settled} of ${data.total} rows settled`}
        className="h-2 w-full overflow-hidden rounded bg-surface-2"
      >
        <div className="h-full bg-accent transition-[width]" style={{ width: `${data.total ? (100 * settled) / data.total : 0}%` }} />
      </div>
      <p className="text-xs text-muted" aria-live="polite" data-testid="bulk-counts">
        {(Object.keys(rowStateLabels) as RowState[])
          .filter((state) => data.counts[state] > 0)
          .map((state) => `${rowStateLabels[state]}: ${data.counts[state]}`)
          .join(" · ")}
      </p>
      {data.status === "done" && retriable > 0 ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button size="compact" onClick={() => retry.mutate()} disabled={retry.isPending}>
            {retry.isPending ? "Retrying…" : `Retry failed rows (${retriable})`}
          </Button>
          <ActionError error={retry.error} testId="bulk-retry-error" />
        </div>
      ) : null}
      <details open={data.status === "done"}>
        <summary className="cursor-pointer text-sm">Each row&apos;s outcome</summary>
        <div className="max-h-80 overflow-auto">
          <Table data-testid="bulk-rows">
            <thead>
              <tr>
                <Th>Id</Th>
                <Th>Outcome</Th>
                <Th>Why</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {data.rows.map((row) => (
                <tr key={row.id} data-state={row.state}>
                  <Td className="font-mono text-xs break-all">{row.id}</Td>
                  <Td className={`text-xs font-medium ${tones[row.state]}`}>{rowStateLabels[row.state]}</Td>
                  <Td className="text-xs break-words">{row.reason ?? ""}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      </details>
    </section>
  );
}
