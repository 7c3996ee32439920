"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { listStateFrom, searchOf, type ListState } from "@/lib/resources/list-state";

/**
 * The list's state, read from the URL (the one source of truth) and written back to it. Changes use the History API
 * (Next.js keeps useSearchParams in step), so a filter or page change fetches through `/api/bank` without re-rendering
 * the server page, while reload, back and a pasted link still land on the same rows.
 */
export function useListState(): [ListState, (next: ListState) => void] {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const state = useMemo(() => listStateFrom(new URLSearchParams(searchParams.toString())), [searchParams]);
  const navigate = useCallback(
    (next: ListState) => {
      const search = searchOf(next);
      window.history.pushState(null, "", search ? `${pathname}?${search}` : pathname);
    },
    [pathname],
  );
  return [state, navigate];
}
