"use client";

import { useState } from "react";
import type { RowSelection } from "@/components/ui/data-table";

const none: RowSelection = {};

/**
 * The rows selected on a list, by id. Kept across its pages and a change of sort (the same rows match), dropped when
 * its filters change (other rows match then).
 */
export function useRowSelection(filtersKey: string): { selected: RowSelection; ids: string[]; onChange(next: RowSelection): void; clear(): void } {
  const [state, setState] = useState<{ key: string; selected: RowSelection }>({ key: filtersKey, selected: none });
  const selected = state.key === filtersKey ? state.selected : none;
  return {
    selected,
    ids: Object.keys(selected),
    onChange: (next) => setState({ key: filtersKey, selected: next }),
    clear: () => setState({ key: filtersKey, selected: none }),
  };
}
