"use client";

import { useState } from "react";
import { useConsoleSession } from "@/components/console/providers";
import { fetchConsole } from "@/lib/bank/browser";
import { useIndexCount } from "@/lib/bank/queries";
import { inSentence } from "@/lib/format";
import { resourceRoutes, type ResourceName } from "@/lib/resources/routes";
import { indexIdsPath, maxSelectedRows } from "@/lib/search/index-filters";

const control = "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2 disabled:opacity-40";

/**
 * Offered once every row of an index-served page is selected: "Select all N matching", with the index's exact count,
 * selecting the matching ids in the list's order (at most 500, the most a bulk action takes; above that it says so).
 */
export function SelectMatching({
  resource,
  filters,
  selectedCount,
  onSelect,
}: {
  resource: ResourceName;
  /** The list's filters and sort, without paging. */
  filters: Record<string, string>;
  selectedCount: number;
  onSelect(ids: string[]): void;
}) {
  const { environment } = useConsoleSession();
  const count = useIndexCount(environment, resource, filters);
  const [state, setState] = useState<"idle" | "loading" | { error: string }>("idle");
  const matching = count.data?.count;
  if (matching === undefined || matching <= selectedCount) return null;
  const noun = inSentence(resourceRoutes[resource].title);
  if (matching > maxSelectedRows)
    return (
      <p data-testid="select-matching" className="text-xs text-muted">
        {matching.toLocaleString("en-US")} {noun} match: at most {maxSelectedRows} rows can be selected at once, so narrow the filters to select them
        all.
      </p>
    );
  return (
    <p data-testid="select-matching" className="flex items-center gap-2 text-xs">
      <button
        type="button"
        className={control}
        disabled={state === "loading"}
        onClick={async () => {
          setState("loading");
          try {
            const found = await fetchConsole<{ ids: string[] }>(indexIdsPath(resource, filters));
            onSelect(found.ids);
            setState("idle");
          } catch (error) {
            setState({ error: error instanceof Error ? error.message : "the index did not answer" });
          }
        }}
      >
        Select all {matching.toLocaleString("en-US")} matching
      </button>
      {typeof state === "object" ? <span role="status">Could not select them: {state.error}</span> : null}
    </p>
  );
}
