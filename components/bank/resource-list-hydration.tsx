"use client";

import { HydrationBoundary, type DehydratedState } from "@tanstack/react-query";
import { useMemo, type ReactNode } from "react";
import { unpackPage } from "@/lib/resources/packed-rows";

/**
 * The list page's hydration (react-query's `HydrationBoundary`) from a state whose list pages came packed
 * (lib/resources/packed-rows.ts): their rows are unpacked here, so the cache holds the pages as the API answers them.
 */
export function ResourceListHydration({ state, children }: { state: DehydratedState; children: ReactNode }) {
  const unpacked = useMemo<DehydratedState>(
    () => ({ ...state, queries: state.queries.map((query) => ({ ...query, state: { ...query.state, data: unpackPage(query.state.data) } })) }),
    [state],
  );
  return <HydrationBoundary state={unpacked}>{children}</HydrationBoundary>;
}
