"use client";

import { useEffect, useState } from "react";
import { lazyComponent } from "@/components/ui/lazy-component";

// The bar's actions, their confirmation (with its userdata diff) and a job's progress are a chunk of their own, loaded
// when a row is first selected or the URL names a job: a list's first paint has neither (docs/benchmarks.md, pages).
const BulkPanel = lazyComponent(() => import("./bulk-panel").then((module) => module.BulkPanel));

/**
 * The job shown is named in the URL's fragment (`#bulk=<id>`): kept on reload and in history, never sent as a list
 * filter (a query parameter would be: lib/resources/list-state.ts passes every other one to the bank).
 */
const fragmentPrefix = "#bulk=";

function useJobInUrl(): [string | null, (id: string | null) => void] {
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    const read = () =>
      setId(window.location.hash.startsWith(fragmentPrefix) ? decodeURIComponent(window.location.hash.slice(fragmentPrefix.length)) : null);
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  const write = (next: string | null) => {
    const url = new URL(window.location.href);
    url.hash = next ? `bulk=${encodeURIComponent(next)}` : "";
    // No state of our own: the App Router then takes the URL as its own (a later refresh of the list keeps it).
    window.history.replaceState(null, "", url);
  };
  // A change of the list's filters is a new URL without the fragment: it is put back while the job is shown.
  useEffect(() => {
    if (id && window.location.hash !== `${fragmentPrefix}${encodeURIComponent(id)}`) write(id);
  });
  const show = (next: string | null) => {
    write(next);
    setId(next);
  };
  return [id, show];
}

/**
 * The bar over a list with selected rows: what is selected and the bulk actions the role may take on `resource`
 * (a resource name of lib/resources, or "review" for the review queue), and the progress of the bulk action started
 * from it, which runs on the server (lib/bulk) and is shown again when the page is opened with its `#bulk=<id>`.
 * Renders nothing while no row is selected and no bulk action is shown.
 */
export function BulkBar({ resource, ids, onClear }: { resource: string; ids: string[]; onClear(): void }) {
  const [jobId, showJob] = useJobInUrl();
  if (ids.length === 0 && !jobId) return null;
  return <BulkPanel resource={resource} ids={ids} onClear={onClear} jobId={jobId} showJob={showJob} />;
}
