"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { navigationStartEvent } from "./navigation-progress";

/** Whether a click on this anchor makes the App Router navigate to another page of the console. */
function isNavigationClick(event: MouseEvent): boolean {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const anchor = (event.target as Element | null)?.closest?.("a[href]");
  if (!(anchor instanceof HTMLAnchorElement) || anchor.target || anchor.hasAttribute("download")) return false;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname.startsWith("/api/")) return false;
  return url.pathname !== window.location.pathname || url.search !== window.location.search;
}

/**
 * A thin bar across the top while a route change is on its way: it starts on a link click (or
 * `startNavigationProgress`), creeps towards 90 %, and completes when the new path or query is shown. A navigation
 * that never lands (an error, a click on the current page) ends after 15 s. Mounted after hydration
 * (components/console/shell-extras.tsx), so a click before then shows no bar.
 */
export function RouteProgress() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const shown = `${pathname}?${searchParams.toString()}`;
  const [progress, setProgress] = useState<number | null>(null);
  const timers = useRef<{ creep?: number; giveUp?: number; hide?: number }>({});

  useEffect(() => {
    const current = timers.current;
    function stopTimers() {
      window.clearInterval(current.creep);
      window.clearTimeout(current.giveUp);
      window.clearTimeout(current.hide);
    }
    function start() {
      stopTimers();
      setProgress(8);
      current.creep = window.setInterval(() => setProgress((value) => (value === null || value >= 100 ? value : value + (90 - value) * 0.12)), 200);
      current.giveUp = window.setTimeout(() => setProgress(null), 15_000);
    }
    function onClick(event: MouseEvent) {
      if (isNavigationClick(event)) start();
    }
    // The capture phase: Next's Link cancels the click's default (it navigates itself) before a bubbling listener runs.
    window.addEventListener("click", onClick, true);
    window.addEventListener(navigationStartEvent, start);
    return () => {
      window.removeEventListener("click", onClick, true);
      window.removeEventListener(navigationStartEvent, start);
      stopTimers();
    };
  }, []);

  // The new page (or query) is shown: the bar completes, then fades.
  useEffect(() => {
    const current = timers.current;
    window.clearInterval(current.creep);
    window.clearTimeout(current.giveUp);
    const frame = window.requestAnimationFrame(() => setProgress((value) => (value === null ? null : 100)));
    current.hide = window.setTimeout(() => setProgress((value) => (value === 100 ? null : value)), 300);
    return () => window.cancelAnimationFrame(frame);
  }, [shown]);

  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-x-0 top-0 z-[60] h-0.5">
      <div
        data-testid="route-progress"
        data-state={progress === null ? "idle" : progress >= 100 ? "done" : "loading"}
        className="h-full bg-accent transition-[width,opacity] duration-200 ease-out"
        style={{ width: `${progress ?? 0}%`, opacity: progress === null ? 0 : 1 }}
      />
    </div>
  );
}
