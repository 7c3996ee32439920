"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useConsoleSession } from "@/components/console/providers";
import { fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import { detailHref } from "@/lib/resources/routes";
import type { SearchHit, SearchResults } from "@/lib/search/search";

/** The value after it stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The search over the index for `q` (debounced while typing), through `GET /api/search`. The debounce is short (a
 * search's server time is 3-30 ms at 100,000 objects, docs/benchmarks.md) and a query typed past is aborted, so a
 * fast typist's keystrokes cost the server little while a pause shows results at once (the target: keystroke →
 * results under 150 ms).
 */
export function useSearch(q: string, options: { debounceMs?: number; limitPerGroup?: number } = {}) {
  const { debounceMs = 60, limitPerGroup } = options;
  const { environment } = useConsoleSession();
  const settled = useDebounced(q.trim(), debounceMs);
  const query = useQuery({
    queryKey: bankKeys.search(environment, settled),
    queryFn: ({ signal }) => fetchConsole<SearchResults>(`/api/search?${new URLSearchParams({ q: settled })}`, { signal }),
    enabled: settled.length > 0,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
  const current = settled.length > 0 ? query.data : undefined;
  return {
    results: current,
    hits: current ? orderedHits(current, limitPerGroup) : [],
    settled,
    isFetching: query.isFetching,
    error: settled.length > 0 ? query.error : null,
  };
}

export const shownOf = (hits: SearchHit[], limitPerGroup?: number) => (limitPerGroup ? hits.slice(0, limitPerGroup) : hits);

/** Every hit in the order shown (groups in order, hits best first): what the arrow keys walk and Enter opens. */
export function orderedHits(results: SearchResults, limitPerGroup?: number): SearchHit[] {
  return results.groups.flatMap((group) => shownOf(group.hits, limitPerGroup));
}

export const hitHref = (hit: SearchHit) => detailHref(hit.resource, hit.id);
