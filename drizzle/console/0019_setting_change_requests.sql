-- Switching four-eyes off in production is itself a change held for a second admin (docs/approvals.md, "The
-- setting"): a change request of kind 'setting'. Safe to run twice.
ALTER TABLE "console"."change_requests" DROP CONSTRAINT IF EXISTS "change_requests_kind";
--> statement-breakpoint
ALTER TABLE "console"."change_requests" ADD CONSTRAINT "change_requests_kind" CHECK ("kind" IN ('bank', 'credentials', 'setting'));
