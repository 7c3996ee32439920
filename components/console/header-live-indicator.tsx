"use client";

import { lazyComponent } from "@/components/ui/lazy-component";

/**
 * The header's live indicator (components/live/live-indicator.tsx) as a chunk of its own: the server renders it, and
 * its code (the bank's health poll, the states' words) hydrates it once loaded, so the first load of every page goes
 * without it (docs/benchmarks.md, pages). Until then the server's "Connecting…" stays, which is what it says anyway.
 */
export const HeaderLiveIndicator = lazyComponent(() => import("@/components/live/live-indicator").then((module) => module.LiveIndicator));
