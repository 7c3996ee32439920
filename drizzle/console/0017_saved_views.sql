-- Saved views of a list (docs/search.md, lib/views/): a name, the list's filters and its visible columns, personal to
-- their owner or shared with every staff member. Names are unique per owner and list.
CREATE TABLE "console"."saved_views" (
	"id" text PRIMARY KEY NOT NULL,
	"resource" text NOT NULL,
	"name" text NOT NULL,
	"owner_id" text NOT NULL,
	"owner_email" text NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"query" jsonb NOT NULL,
	"columns" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_views_name_length" CHECK (char_length("name") BETWEEN 1 AND 60)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_owner_name_idx" ON "console"."saved_views" USING btree ("owner_id","resource",lower("name"));
--> statement-breakpoint
CREATE INDEX "saved_views_resource_idx" ON "console"."saved_views" USING btree ("resource","shared");
