"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
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

/** Starts a bulk action on the server: nothing at the bank has changed yet when it answers, so nothing is stale. */
export const useStartBulk = (onStarted: (job: BulkJobView) => void) =>
  useBankAction<BulkStart, BulkJobView>({
    request: (body) => ({ method: "POST", path: "", api: "bulk", body }),
    invalidates: () => [],
    onSuccess: onStarted,
  });

/** Sends a job's refused, failed and unknown rows again; its progress is read anew. */
export const useRetryBulk = (id: string) =>
  useBankAction<void, BulkJobView>({
    request: () => ({ method: "POST", path: `/${encodeURIComponent(id)}/retry`, api: "bulk" }),
    invalidates: (environment) => [bankKeys.bulkJob(environment, id)],
  });

const isFinished = (job: BulkJobView | undefined) => job?.status === "done" || job?.status === "closed";

/**
 * A bulk action's progress, read every half second while it runs (every 5 s while it awaits approval); once it is done
 * the lists of its resource are read again, since their rows changed.
 */
export function useBulkJob(id: string) {
  const { environment } = useConsoleSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: bankKeys.bulkJob(environment, id),
    queryFn: ({ signal }) => fetchConsole<BulkJobView>(`/api/bulk/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (current) => (isFinished(current.state.data) ? false : current.state.data?.status === "awaiting_approval" ? 5000 : 500),
  });
  const finished = isFinished(query.data);
  const resource = query.data?.resource;
  useEffect(() => {
    if (finished && resource && resource !== "review")
      void queryClient.invalidateQueries({ queryKey: bankKeys.lists(environment, resource as ResourceName) });
  }, [finished, resource, environment, queryClient]);
  return query;
}
