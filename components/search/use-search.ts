"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useConsoleSession } from "@/components/console/providers";
import { fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import { detailHref } from "@/lib/resources/routes";
import type { SearchHit, SearchResults } from "@/lib/search/search";

/** The value after it stopped changing for `ms` (`initial` until then; the value itself by default). */
export function useDebounced<T>(value: T, ms: number, initial: T = value): T {
  const [settled, setSettled] = useState(initial);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** How long the box must rest before its query is the search to run and record (Enter runs it at once). */
export const recordAfterMs = 800;

const searchPath = (q: string, preview: boolean) => `/api/search?${new URLSearchParams(preview ? { q, preview: "1" } : { q })}`;

/**
 * The search over the index for `q`, through `GET /api/search`, in two steps so that a role whose searches are audited
 * leaves one record per search, not per keystroke (lib/search/search-preview.ts): while typing, a PREVIEW (public
 * fields only, never recorded; debounced briefly, a query typed past aborted, so keystroke → results stays under
 * 150 ms, docs/benchmarks.md); once the query rests `recordAfterMs`, or `runNow()` (Enter), the SEARCH itself, which
 * matches all the role may and is recorded; a query that arrives whole is searched at once. Its results replace the
 * preview's for that query.
 */
export function useSearch(
  q: string,
  options: {
    debounceMs?: number;
    limitPerGroup?: number;
    /** The box was typed in before this hook started (the header's panel loads on focus): its first query is a keystroke too. */
    typingAlready?: boolean;
  } = {},
) {
  const { debounceMs = 60, limitPerGroup, typingAlready = false } = options;
  const { environment } = useConsoleSession();
  const queryClient = useQueryClient();
  const text = q.trim();
  const typed = useDebounced(text, debounceMs);
  const rested = useDebounced(text, recordAfterMs, typingAlready ? "" : text);
  // A query that arrives whole in an empty box (pasted, opened from a link, confirmed) is a search run at once, like Enter.
  const [ranNow, setRanNow] = useState<string | null>(null);
  const [previous, setPrevious] = useState(text);
  if (text !== previous) {
    setPrevious(text);
    if (previous === "" && text.length > 1) setRanNow(text);
  }
  const final = ranNow === text ? text : rested;
  const searchOptions = (query: string) => ({
    queryKey: bankKeys.search(environment, query),
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchConsole<SearchResults>(searchPath(query, false), { signal }),
    staleTime: 10_000,
  });
  const searched = useQuery({ ...searchOptions(final), enabled: final.length > 0 });
  const previewed = useQuery({
    queryKey: bankKeys.searchPreview(environment, typed),
    queryFn: ({ signal }) => fetchConsole<SearchResults>(searchPath(typed, true), { signal }),
    enabled: typed.length > 0 && typed !== final,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
  // The recorded search's answer once it has come for the query as typed; the preview's until then.
  const showSearched = final.length > 0 && final === text && searched.data !== undefined;
  const current = text.length === 0 ? undefined : showSearched ? searched.data : previewed.data;
  const failed = showSearched || typed === final ? searched.error : previewed.error;
  return {
    results: current,
    hits: current ? orderedHits(current, limitPerGroup) : [],
    settled: showSearched ? final : typed,
    isFetching: searched.isFetching || previewed.isFetching,
    error: text.length > 0 ? failed : null,
    /** Runs the search for the query as it stands now (Enter), recorded, and resolves with its results. */
    runNow(): Promise<SearchResults> {
      setRanNow(text);
      return queryClient.fetchQuery(searchOptions(text));
    },
  };
}

export const shownOf = (hits: SearchHit[], limitPerGroup?: number) => (limitPerGroup ? hits.slice(0, limitPerGroup) : hits);

/** Every hit in the order shown (groups in order, hits best first): what the arrow keys walk and Enter opens. */
export function orderedHits(results: SearchResults, limitPerGroup?: number): SearchHit[] {
  return results.groups.flatMap((group) => shownOf(group.hits, limitPerGroup));
}

export const hitHref = (hit: SearchHit) => detailHref(hit.resource, hit.id);
