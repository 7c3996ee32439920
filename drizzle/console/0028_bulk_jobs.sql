-- Bulk actions (docs/console-actions.md, "Bulk actions", lib/bulk/): a job and one row per selected object, each row
-- claimed before its send and settled after it, so a console restart resumes a job without sending a row twice.
CREATE TABLE "console"."bulk_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"environment" text NOT NULL,
	"action" text NOT NULL,
	"resource" text NOT NULL,
	"params" jsonb NOT NULL,
	"state" text NOT NULL,
	"maker_id" text NOT NULL,
	"maker_email" text NOT NULL,
	"run_as_id" text,
	"approval_id" integer,
	"request_id" text NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "bulk_jobs_state" CHECK ("state" IN ('awaiting_approval', 'queued', 'done', 'closed'))
);
--> statement-breakpoint
CREATE INDEX "bulk_jobs_due_idx" ON "console"."bulk_jobs" USING btree ("state","lease_until");
--> statement-breakpoint
CREATE INDEX "bulk_jobs_maker_idx" ON "console"."bulk_jobs" USING btree ("maker_id","created_at");
--> statement-breakpoint
CREATE TABLE "console"."bulk_rows" (
	"job_id" text NOT NULL REFERENCES "console"."bulk_jobs"("id"),
	"position" integer NOT NULL,
	"object_id" text NOT NULL,
	"seen" jsonb,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "bulk_rows_pk" PRIMARY KEY ("job_id","position"),
	CONSTRAINT "bulk_rows_state" CHECK ("state" IN ('pending', 'sending', 'done', 'refused', 'failed', 'skipped', 'unknown'))
);
--> statement-breakpoint
CREATE INDEX "bulk_rows_state_idx" ON "console"."bulk_rows" USING btree ("job_id","state");
--> statement-breakpoint
-- A bulk change under four-eyes is ONE change request for the whole set (docs/approvals.md): kind 'bulk'.
ALTER TABLE "console"."change_requests" DROP CONSTRAINT IF EXISTS "change_requests_kind";
--> statement-breakpoint
ALTER TABLE "console"."change_requests" ADD CONSTRAINT "change_requests_kind" CHECK ("kind" IN ('bank', 'credentials', 'setting', 'staff', 'bulk'));
