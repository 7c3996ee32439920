"use client";

import dynamic from "next/dynamic";

/** The chart library loads after the page (it is large), so it never counts against the first-load JavaScript. */
export const LazyStatusChart = dynamic(() => import("./status-chart"), {
  ssr: false,
  loading: () => <div className="h-56 w-full animate-pulse rounded bg-surface-2" />,
});
