"use client";

import { bankOrder, type ListSort, type SortKind } from "@/lib/resources/sorting";

const directionWords: Record<SortKind, [ascending: string, descending: string]> = {
  amount: ["lowest first", "highest first"],
  money: ["lowest first", "highest first"],
  created: ["oldest first", "newest first"],
  time: ["earliest first", "latest first"],
  text: ["A to Z", "Z to A"],
};

const item = "block w-full rounded px-2 py-1 text-left text-xs normal-case hover:bg-surface-2 aria-[current=true]:font-semibold";

export interface SortChoicesProps {
  label: string;
  column: string;
  kind: SortKind;
  sort: ListSort | null;
  onChoose(next: ListSort | null): void;
}

/** A sort menu's choices, their own chunk loaded when a header's menu first opens (components/bank/sort-menu.tsx). */
export function SortChoices({ label, column, kind, sort, onChoose }: SortChoicesProps) {
  const here = sort?.column === column ? sort : null;
  const [ascending, descending] = directionWords[kind];
  return (
    <>
      <p className="px-2 py-1 text-xs text-muted normal-case">
        {sort ? "Sorted by the console's index." : `The bank's order: ${bankOrder}. Sorting here lists from the console's index.`}
      </p>
      <button type="button" className={item} aria-current={here?.descending === false} onClick={() => onChoose({ column, descending: false })}>
        Sort by {label.toLowerCase()}: {ascending}
      </button>
      <button type="button" className={item} aria-current={here?.descending === true} onClick={() => onChoose({ column, descending: true })}>
        Sort by {label.toLowerCase()}: {descending}
      </button>
      {sort ? (
        <button type="button" className={item} onClick={() => onChoose(null)}>
          The bank&apos;s order ({bankOrder})
        </button>
      ) : null}
    </>
  );
}
