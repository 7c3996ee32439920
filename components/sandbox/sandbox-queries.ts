"use client";

import { useQuery } from "@tanstack/react-query";
import { useConsoleSession } from "@/components/console/providers";
import { fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import { sandboxApiPath, type SandboxFault, type MovableResource, type Transitions } from "./sandbox-api";

/**
 * The browser's reads of the sandbox bank's control API (`/api/sandbox/...`, docs/sandbox-control.md), keyed by
 * `bankKeys`, so a reset, an advance or a transition (sandbox-mutations.ts) and the live feed refresh them.
 */

/** The sandbox's time, read again every minute (it runs on, and the page shows it to the minute). */
export function useSandboxClock() {
  const { environment } = useConsoleSession();
  return useQuery({
    queryKey: bankKeys.sandboxClock(environment),
    queryFn: () => fetchConsole<{ now: string }>(sandboxApiPath("/clock")),
    refetchInterval: 60_000,
  });
}

/** The active failures, read again every 10 s: a fault with `times` or `expires_in` goes away by itself. */
export function useSandboxFaults() {
  const { environment } = useConsoleSession();
  return useQuery({
    queryKey: bankKeys.sandboxFaults(environment),
    queryFn: () => fetchConsole<{ data: SandboxFault[] }>(sandboxApiPath("/faults")),
    refetchInterval: 10_000,
  });
}

/** The transitions valid from an object's current state, read when the Simulate menu opens (never cached for long). */
export function useTransitions(resource: MovableResource, id: string, enabled: boolean) {
  const { environment } = useConsoleSession();
  return useQuery({
    queryKey: bankKeys.transitions(environment, resource, id),
    queryFn: () => fetchConsole<Transitions>(sandboxApiPath(`/${resource}/${encodeURIComponent(id)}/transitions`)),
    staleTime: 0,
    enabled,
  });
}
