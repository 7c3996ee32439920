"use client";

import { useRef } from "react";
import { bankOrder, type ListSort, type SortKind } from "@/lib/resources/sorting";

const directionWords: Record<SortKind, [ascending: string, descending: string]> = {
  amount: ["lowest first", "highest first"],
  money: ["lowest first", "highest first"],
  created: ["oldest first", "newest first"],
  time: ["earliest first", "latest first"],
  text: ["A to Z", "Z to A"],
};

const item = "block w-full rounded px-2 py-1 text-left text-xs normal-case hover:bg-surface-2 aria-[current=true]:font-semibold";

/**
 * A sortable column's header menu. A list that is the bank's own answer says so (the bank's order, newest first):
 * choosing a sort there makes it the console's index's answer; an index-served list offers the bank's order back.
 */
export function SortMenu({
  label,
  column,
  kind,
  sort,
  onSort,
}: {
  label: string;
  column: string;
  kind: SortKind;
  sort: ListSort | null;
  onSort(next: ListSort | null): void;
}) {
  const menu = useRef<HTMLDetailsElement>(null);
  const here = sort?.column === column ? sort : null;
  const choose = (next: ListSort | null) => {
    if (menu.current) menu.current.open = false;
    onSort(next);
  };
  const [ascending, descending] = directionWords[kind];
  return (
    <details ref={menu} className="relative inline-block" data-testid="sort-menu">
      <summary className="cursor-pointer list-none rounded px-0.5 uppercase hover:text-fg">
        {label}
        <span aria-hidden="true">{here ? (here.descending ? " ↓" : " ↑") : ""}</span>
      </summary>
      <div className="absolute left-0 z-40 mt-1 w-56 rounded-md border border-line bg-surface p-1 font-normal tracking-normal text-fg shadow-lg">
        <p className="px-2 py-1 text-xs text-muted normal-case">
          {sort ? "Sorted by the console's index." : `The bank's order: ${bankOrder}. Sorting here lists from the console's index.`}
        </p>
        <button type="button" className={item} aria-current={here?.descending === false} onClick={() => choose({ column, descending: false })}>
          Sort by {label.toLowerCase()}: {ascending}
        </button>
        <button type="button" className={item} aria-current={here?.descending === true} onClick={() => choose({ column, descending: true })}>
          Sort by {label.toLowerCase()}: {descending}
        </button>
        {sort ? (
          <button type="button" className={item} onClick={() => choose(null)}>
            The bank&apos;s order ({bankOrder})
          </button>
        ) : null}
      </div>
    </details>
  );
}
