import { boolean, index, jsonb, text } from "drizzle-orm/pg-core";
import { consoleSchema, moment } from "./base";

/**
 * A saved view of a list (lib/views/): its filters (the list URL's query, without paging) and visible columns, under
 * a name, personal to its owner or shared with every staff member. Migration 0017_saved_views.sql also holds the
 * name's length check and the owner/list/lower(name) unique index.
 */
export const savedViews = consoleSchema.table(
  "saved_views",
  {
    id: text("id").primaryKey(),
    resource: text("resource").notNull(),
    name: text("name").notNull(),
    ownerId: text("owner_id").notNull(),
    ownerEmail: text("owner_email").notNull(),
    shared: boolean("shared").notNull().default(false),
    query: jsonb("query").$type<Record<string, string>>().notNull(),
    columns: jsonb("columns").$type<Record<string, boolean>>().notNull(),
    /** The columns' order and the widths set (migration 0029); {} for the list's own. */
    layout: jsonb("layout").$type<{ order?: string[]; widths?: Record<string, number> }>().notNull().default({}),
    createdAt: moment("created_at").notNull().defaultNow(),
  },
  (table) => [index("saved_views_resource_idx").on(table.resource, table.shared)],
);
