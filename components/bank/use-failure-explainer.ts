"use client";

import { useSyncExternalStore } from "react";
import type { FailureExplainer } from "@/lib/contract/reason-codes";

/**
 * The word tables of failure codes (lib/contract/reason-codes.ts, ~5.5 kB gzip) load apart from a page's first scripts,
 * once a cell that shows a code's words is on screen. Until then (and in the server's HTML, so hydration matches) the
 * hook answers null and a code shows alone; then every such cell renders again with its title and meaning.
 */
let explainer: FailureExplainer | null = null;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  loading ??= import("@/lib/contract/reason-codes").then(
    (words) => {
      explainer = words.explainFailure;
      for (const notify of listeners) notify();
    },
    // Offline or a deploy replaced the chunk: codes stay without words, and the next cell mounted tries again.
    () => (loading = undefined),
  );
  return () => listeners.delete(listener);
}

/** The explainer once loaded, else null (loading it once the first such cell is mounted). */
export function useFailureExplainer(): FailureExplainer | null {
  return useSyncExternalStore(
    subscribe,
    () => explainer,
    () => null,
  );
}
