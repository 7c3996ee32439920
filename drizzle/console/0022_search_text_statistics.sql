-- The typo search (`text <% column`, pg_trgm) was planned in 19-23 ms and run in 7-10 ms on PGlite at 100,000 objects:
-- pg_trgm estimates `<%` by computing it over the column's most common values and histogram, up to 200 long texts per
-- condition, and the typo statement has twelve such conditions. These three texts are never estimated usefully (each
-- search arm is its own index-served subquery, docs/search.md), so they keep no statistics: planning 0.5 ms.
ALTER TABLE "console"."bank_search" ALTER COLUMN "public_text" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "console"."bank_search" ALTER COLUMN "userdata_text" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "console"."bank_search" ALTER COLUMN "personal_text" SET STATISTICS 0;
--> statement-breakpoint
-- ANALYZE skips a column without statistics but leaves what it gathered before; only a superuser may remove that
-- (PGlite's user is one). Elsewhere it stays until a superuser runs this statement (docs/search.md, "Speed").
DO $$
BEGIN
  DELETE FROM pg_catalog.pg_statistic
  WHERE starelid = 'console.bank_search'::regclass
    AND staattnum IN (
      SELECT attnum FROM pg_catalog.pg_attribute
      WHERE attrelid = 'console.bank_search'::regclass AND attname IN ('public_text', 'userdata_text', 'personal_text')
    );
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'bank_search: the statistics gathered before on its texts stay (removing them needs a superuser)';
END $$;
