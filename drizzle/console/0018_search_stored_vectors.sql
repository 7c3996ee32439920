-- The full-text vectors of the search documents, stored (docs/search.md, "Speed"): a search computed
-- to_tsvector('simple', …) of three texts for every row its plan visited; at 2,655 objects a sequential scan spent
-- ~60 ms of a ~61 ms search re-parsing them. Stored, they are read, not recomputed, and indexed as they are.
ALTER TABLE "console"."bank_search"
  ADD COLUMN "public_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "public_text")) STORED,
  ADD COLUMN "userdata_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "userdata_text")) STORED,
  ADD COLUMN "personal_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "personal_text")) STORED;
--> statement-breakpoint
DROP INDEX "console"."bank_search_public_tsv_idx";
--> statement-breakpoint
DROP INDEX "console"."bank_search_userdata_tsv_idx";
--> statement-breakpoint
DROP INDEX "console"."bank_search_personal_tsv_idx";
--> statement-breakpoint
CREATE INDEX "bank_search_public_tsv_idx" ON "console"."bank_search" USING gin ("public_tsv");
--> statement-breakpoint
CREATE INDEX "bank_search_userdata_tsv_idx" ON "console"."bank_search" USING gin ("userdata_tsv");
--> statement-breakpoint
CREATE INDEX "bank_search_personal_tsv_idx" ON "console"."bank_search" USING gin ("personal_tsv");
