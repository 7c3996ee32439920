"use client";

import { useConsoleSession } from "@/components/console/providers";
import { useIndexCount } from "@/lib/bank/queries";
import { exactUtc, inSentence, relativeTime } from "@/lib/format";
import { resourceRoutes, type ResourceName } from "@/lib/resources/routes";

/**
 * The list header's exact count, from the console's index (the bank's API has no count): "1,204 ACH transfers match",
 * with when the index last changed. "At least" while the index has not walked the list in full; nothing while the
 * count is loading or the index cannot answer, since the rows themselves do not depend on it.
 */
export function ListCount({ resource, query, filtered }: { resource: ResourceName; query: Record<string, string>; filtered: boolean }) {
  const { environment } = useConsoleSession();
  const count = useIndexCount(environment, resource, query);
  if (!count.data) return null;
  const { count: n, index } = count.data;
  const noun = inSentence(n === 1 ? resourceRoutes[resource].singular : resourceRoutes[resource].title);
  return (
    <span data-testid="list-count" className="text-muted" title={`Counted by the console's index at ${exactUtc(index.asOf)}`}>
      <strong className="font-semibold text-fg tabular-nums">
        {index.complete ? "" : "at least "}
        {n.toLocaleString("en-US")}
      </strong>{" "}
      {noun}
      {filtered ? " match" : ""} · index as of {index.lastChange ? relativeTime(index.lastChange, Date.parse(index.asOf)) : "never"}
    </span>
  );
}
