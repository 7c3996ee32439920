"use client";

import { lazyComponent } from "@/components/ui/lazy-component";

/** The chart library loads after the page (it is large), so it never counts against the first-load JavaScript. */
export const LazyStatusChart = lazyComponent(() => import("./status-chart").then((module) => module.default), {
  ssr: false,
  fallback: <div className="h-56 w-full animate-pulse rounded bg-surface-2" />,
});
