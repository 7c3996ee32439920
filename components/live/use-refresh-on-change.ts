"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useLiveEvents, type LiveChange } from "./live-provider";

/**
 * Re-renders the page's server parts (router.refresh) when a live change that `matches` arrives, or after a reset.
 * Changes arriving within `delayMs` of the first are served by one refresh: a burst costs one, not one each.
 */
export function useRefreshOnChange(matches: (change: LiveChange) => boolean, delayMs = 400): void {
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveEvents((event) => {
    if (timer.current !== undefined || (event.type === "change" && !matches(event.change))) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      router.refresh();
    }, delayMs);
  });
}
