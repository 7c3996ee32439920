"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useConsoleSession } from "@/components/console/providers";
import { useBankAction } from "@/components/bank/use-bank-action";
import { fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import type { BulkActionName, BulkJobView } from "@/lib/bulk/codes";
import type { ResourceName } from "@/lib/resources/types";

/** What the bar asks for: `POST /api/bulk` (lib/bulk/routes.ts). */
export interface BulkStart {
  action: BulkActionName;
  resource: string;
  ids: string[];
  key?: string;
  value?: unknown;
  reviewer?: string;
}

/**
 * Starts a bulk action on the server: nothing at the bank has changed yet when it answers, so nothing is stale. Its
 * answer (the job, running) is the progress's first reading, so a job that finishes before the next one is still seen
 * finishing here.
 */
export function useStartBulk(onStarted: (job: BulkJobView) => void) {
  const { environment } = useConsoleSession();
  const queryClient = useQueryClient();
  return useBankAction<BulkStart, BulkJobView>({
    request: (body) => ({ method: "POST", path: "", api: "bulk", body }),
    invalidates: () => [],
    onSuccess: (job) => {
      queryClient.setQueryData(bankKeys.bulkJob(environment, job.id), job);
      onStarted(job);
    },
  });
}

/** Sends a job's refused, failed and unknown rows again; its progress is read anew. */
export const useRetryBulk = (id: string) =>
  useBankAction<void, BulkJobView>({
    request: () => ({ method: "POST", path: `/${encodeURIComponent(id)}/retry`, api: "bulk" }),
    invalidates: (environment) => [bankKeys.bulkJob(environment, id)],
  });

const isFinished = (job: BulkJobView | undefined) => job?.status === "done" || job?.status === "closed";

/**
 * A bulk action's progress, read every half second while it runs (every 5 s while it awaits approval). Once this tab
 * has seen it finish, what it changed is read again: the resource's lists and the changed objects (TanStack Query),
 * or the review queue, which the server renders (`router.refresh()`). A job already finished when first read changed
 * nothing since the page was rendered.
 */
export function useBulkJob(id: string) {
  const { environment } = useConsoleSession();
  const queryClient = useQueryClient();
  const router = useRouter();
  const query = useQuery({
    queryKey: bankKeys.bulkJob(environment, id),
    queryFn: ({ signal }) => fetchConsole<BulkJobView>(`/api/bulk/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (current) => (isFinished(current.state.data) ? false : current.state.data?.status === "awaiting_approval" ? 5000 : 500),
  });
  const sawRunning = useRef(false);
  const job = query.data;
  useEffect(() => {
    if (!job) return;
    if (!isFinished(job)) {
      sawRunning.current = true;
      return;
    }
    if (!sawRunning.current) return;
    sawRunning.current = false;
    if (job.resource === "review") return router.refresh();
    const resource = job.resource as ResourceName;
    void queryClient.invalidateQueries({ queryKey: bankKeys.lists(environment, resource) });
    for (const row of job.rows)
      if (row.state === "done") void queryClient.invalidateQueries({ queryKey: bankKeys.detail(environment, resource, row.id) });
  }, [job, environment, queryClient, router]);
  return query;
}
