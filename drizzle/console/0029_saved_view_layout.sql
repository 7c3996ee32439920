-- Saved views and sorted lists (issue 44).
-- A saved view keeps its columns' arrangement beside their visibility (lib/views/layout.ts): their order and the widths
-- set, as {"order": [...], "widths": {...}}. Views saved before have none: the list's own order, widths by content.
ALTER TABLE "console"."saved_views" ADD COLUMN "layout" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
-- Index-served lists sorted by amount or status (lib/search/index-list.ts, sortKey) walk these in order instead of
-- sorting every object of the list: the expressions are exactly the sort keys that query writes.
CREATE INDEX "bank_objects_sort_amount_idx" ON "console"."bank_objects" ("environment", "resource",
  (coalesce(CASE WHEN (state #>> '{amount}') ~ '^[0-9]{1,13}[.][0-9]{2}$' THEN (state #>> '{amount}')::numeric END, -1)), ("id" COLLATE "C"))
  WHERE state IS NOT NULL AND bank_created_at IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "bank_objects_sort_status_idx" ON "console"."bank_objects" ("environment", "resource",
  (coalesce(state #>> '{status}', '') COLLATE "C"), ("id" COLLATE "C"))
  WHERE state IS NOT NULL AND bank_created_at IS NOT NULL;
