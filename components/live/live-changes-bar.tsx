"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { bankKeys } from "@/lib/bank/query-keys";
import type { Environment } from "@/lib/credentials/environments";
import type { ResourceName } from "@/lib/resources";
import { useLiveEvents } from "./live-provider";

/**
 * Above an open list: how many objects of its resource changed since it was read (distinct ids), as a bar the user
 * clicks to read the list again, instead of rows moving under the cursor. A reset counts as "changes" too.
 */
export function LiveChangesBar({ environment, resource }: { environment: Environment; resource: ResourceName }) {
  const queryClient = useQueryClient();
  const [changed, setChanged] = useState<{ ids: ReadonlySet<string>; reset: boolean }>({ ids: new Set(), reset: false });
  useLiveEvents((event) => {
    if (event.type === "reset") return setChanged((current) => ({ ...current, reset: true }));
    if (event.change.resource !== resource) return;
    setChanged((current) => (current.ids.has(event.change.id) ? current : { ...current, ids: new Set(current.ids).add(event.change.id) }));
  });
  if (changed.ids.size === 0 && !changed.reset) return null;
  const count = changed.reset ? "Many" : changed.ids.size.toLocaleString("en-US");
  return (
    <div
      role="status"
      data-testid="live-changes"
      className="mb-2 flex items-center justify-between gap-2 rounded-md border border-accent/40 bg-accent/10 px-3 py-1.5 text-xs"
    >
      <span>
        <span className="font-semibold tabular-nums" data-testid="live-changes-count">
          {count}
        </span>{" "}
        new or changed since this list was read
      </span>
      <button
        type="button"
        className="rounded border border-line bg-surface px-2.5 py-1 font-medium hover:bg-surface-2"
        onClick={() => {
          setChanged({ ids: new Set(), reset: false });
          void queryClient.invalidateQueries({ queryKey: bankKeys.lists(environment, resource) });
        }}
      >
        Show
      </button>
    </div>
  );
}
