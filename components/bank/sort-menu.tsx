"use client";

import { useRef, useState } from "react";
import { lazyComponent } from "@/components/ui/lazy-component";
import type { ListSort } from "@/lib/resources/sorting";
import type { SortChoicesProps } from "./sort-choices";

// The choices load when a header's menu first opens (one chunk for every header), started on the way to it.
const SortChoices = lazyComponent<SortChoicesProps>(() => import("./sort-choices").then((module) => module.SortChoices), {
  fallback: <p className="px-2 py-1 text-xs text-muted normal-case">Loading…</p>,
});

/**
 * A sortable column's header menu. A list that is the bank's own answer says so (the bank's order, newest first):
 * choosing a sort there makes it the console's index's answer; an index-served list offers the bank's order back.
 */
export function SortMenu({ onSort, ...choices }: Omit<SortChoicesProps, "onChoose"> & { onSort(next: ListSort | null): void }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const here = choices.sort?.column === choices.column ? choices.sort : null;
  const choose = (next: ListSort | null) => {
    if (menu.current) menu.current.open = false;
    onSort(next);
  };
  return (
    <details ref={menu} className="relative inline-block" data-testid="sort-menu" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary
        className="cursor-pointer list-none rounded px-0.5 uppercase hover:text-fg"
        onPointerEnter={SortChoices.preload}
        onFocus={SortChoices.preload}
      >
        {choices.label}
        <span aria-hidden="true">{here ? (here.descending ? " ↓" : " ↑") : ""}</span>
      </summary>
      <div className="absolute left-0 z-40 mt-1 w-56 rounded-md border border-line bg-surface p-1 font-normal tracking-normal text-fg shadow-lg">
        {open ? <SortChoices {...choices} onChoose={choose} /> : null}
      </div>
    </details>
  );
}
