"use client";

import type { ComponentProps } from "react";
import { BulkBar } from "@/components/bulk/bulk-bar";
import { useRowSelection } from "@/components/bank/use-row-selection";
import { RenderedTable } from "@/components/tables/rendered-table";

/**
 * The queue's table with a checkbox per application: the bulk bar offers assigning the selected ones to a reviewer or
 * unassigning them (lib/bulk). The selection stays across the queue's pages and is dropped when its filters change.
 */
export function QueueTable({ filters, ...table }: { filters: string } & Pick<ComponentProps<typeof RenderedTable>, "columns" | "rows" | "empty">) {
  const selection = useRowSelection(filters);
  return (
    <RenderedTable
      list="reviews"
      caption="Applications awaiting review, oldest first"
      testId="review-queue"
      selection={selection}
      above={<BulkBar resource="review" ids={selection.ids} onClear={selection.clear} />}
      {...table}
    />
  );
}
