"use client";

import { Button } from "@/components/ui/button";

/**
 * The bar over a list with selected rows: what is selected and the bulk actions the role may take on `resource`
 * (a resource name of lib/resources, or "review" for the review queue).
 */
export function BulkBar({ resource, ids, onClear }: { resource: string; ids: string[]; onClear(): void }) {
  if (ids.length === 0) return null;
  return (
    <div
      role="region"
      aria-label="Selected rows"
      data-resource={resource}
      className="flex flex-wrap items-center gap-3 rounded-md border border-line bg-surface-2 px-3 py-2 text-sm"
    >
      <span aria-live="polite">{ids.length} selected</span>
      <Button variant="secondary" size="compact" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}
