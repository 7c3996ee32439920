-- A saved view keeps its columns' arrangement beside their visibility (lib/views/layout.ts): their order and the widths
-- set, as {"order": [...], "widths": {...}}. Views saved before have none: the list's own order, widths by content.
ALTER TABLE "console"."saved_views" ADD COLUMN "layout" jsonb DEFAULT '{}'::jsonb NOT NULL;
