-- "Updated N s ago" on every index-served list and on Home reads the index's newest change, max(last_changed_at) of
-- an environment's objects, which without an index was a scan of every object: most of an index-served list page's
-- 369 ms (p50) at 1,000,655 objects (docs/benchmarks.md, search). With it, the newest change is one index lookup.
CREATE INDEX IF NOT EXISTS "bank_objects_last_changed_idx" ON "console"."bank_objects" USING btree ("environment", "last_changed_at");
