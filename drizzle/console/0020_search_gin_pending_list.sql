-- A GIN index first gathers new entries in a pending list, which every search scans whole, and which is merged into
-- the index only when it outgrows gin_pending_list_limit (4 MB by default) or a VACUUM runs. PGlite never vacuums by
-- itself, and an index of mostly empty texts (personal_text, userdata_text) held all 100,655 documents of a backfill
-- there: 20-30 ms of every search (docs/benchmarks.md, search). 1 MB keeps a search's scan of the list short and the
-- writes still batched: a backfill 13% slower than with 4 MB, where 64 kB made it 2.5x slower.
ALTER INDEX "console"."bank_search_public_tsv_idx" SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX "console"."bank_search_userdata_tsv_idx" SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX "console"."bank_search_personal_tsv_idx" SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX "console"."bank_search_public_trgm_idx" SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX "console"."bank_search_userdata_trgm_idx" SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX "console"."bank_search_personal_trgm_idx" SET (gin_pending_list_limit = 1024);
