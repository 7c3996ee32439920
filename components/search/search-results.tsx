"use client";

import Link from "next/link";
import { StatusBadge } from "@/components/bank/status-badge";
import { formatAmount, humanizeKey } from "@/lib/format";
import { resourceRoutes } from "@/lib/resources/routes";
import type { SearchHit, SearchResults } from "@/lib/search/search";
import { hitHref, shownOf } from "./use-search";

/** What matched in one hit: "email_address a***@example.com (masked field)". */
function Matched({ hit }: { hit: SearchHit }) {
  if (hit.matched.length === 0) return null;
  return (
    <span className="block text-xs text-muted" data-testid="search-matched">
      {hit.matched.map((match, index) => (
        <span key={`${match.field}-${index}`} className="mr-3">
          {match.how === "similar" ? "similar " : ""}
          {humanizeKey(match.field.split(".").at(-1) ?? match.field)}: <span className="font-mono text-fg">{match.shown}</span>
          {match.masked ? <span className="ml-1">(masked field)</span> : null}
        </span>
      ))}
    </span>
  );
}

/**
 * Search results grouped by kind, best first; `activeIndex` is the hit the arrow keys chose (Enter opens it), counted
 * across groups in the order shown. `limitPerGroup` keeps the header's dropdown short.
 */
export function SearchResultList({
  results,
  activeIndex,
  onChoose,
  limitPerGroup,
  idPrefix,
}: {
  results: SearchResults;
  activeIndex: number;
  onChoose?: () => void;
  limitPerGroup?: number;
  idPrefix: string;
}) {
  // Each group's first index across groups, so the arrows' index names one hit.
  const starts = results.groups.reduce<number[]>(
    (found, group, at) => [...found, at === 0 ? 0 : found[at - 1]! + shownOf(results.groups[at - 1]!.hits, limitPerGroup).length],
    [],
  );
  return (
    <div id={`${idPrefix}-list`} className="flex flex-col gap-3">
      {results.groups.map((group, groupIndex) => {
        const definition = resourceRoutes[group.resource];
        const shown = shownOf(group.hits, limitPerGroup);
        return (
          <section key={group.resource} aria-label={definition.title}>
            <h2 className="px-2 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">
              {definition.title} <span className="font-normal normal-case">({group.hits.length})</span>
            </h2>
            <ul className="flex flex-col">
              {shown.map((hit, at) => {
                const index = starts[groupIndex]! + at;
                const active = index === activeIndex;
                return (
                  <li key={hit.id} id={`${idPrefix}-option-${index}`} data-testid="search-hit" data-id={hit.id} data-active={active}>
                    <Link
                      href={hitHref(hit)}
                      onClick={onChoose}
                      aria-current={active ? "true" : undefined}
                      className={`block rounded px-2 py-1.5 ${active ? "bg-surface-2" : "hover:bg-surface-2"}`}
                    >
                      <span className="flex min-w-0 flex-wrap items-center gap-x-2 text-sm">
                        <span className="font-medium text-fg">{hit.name ?? definition.singular}</span>
                        <span className="shrink-0 font-mono text-xs text-muted">{hit.id}</span>
                        {hit.amount ? <span className="shrink-0 font-mono text-xs text-fg">{formatAmount(hit.amount)}</span> : null}
                        {hit.status ? <StatusBadge status={hit.status} /> : null}
                      </span>
                      <Matched hit={hit} />
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
