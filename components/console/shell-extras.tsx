"use client";

import { Suspense } from "react";
import { RouteProgress } from "@/components/ui/route-progress";
import { LastPageRecorder } from "./last-page";

/**
 * The shell's parts that draw nothing until the person acts: the route progress bar and the last-page recorder. One
 * chunk, loaded after hydration (./shell-extras-loader.tsx), so every page's first load and first paint go without them
 * (docs/benchmarks.md, pages). Both read the search parameters, hence their Suspense boundary.
 */
export default function ShellExtras() {
  return (
    <Suspense>
      <RouteProgress />
      <LastPageRecorder />
    </Suspense>
  );
}
