-- Four-eyes between people, not accounts (docs/approvals.md, "Who may approve"): each staff account names who created
-- it and who last changed its role, so an account is refused approving or confirming what that person asked for.
-- Empty for accounts made before (the seed, single sign-on) and for accounts whose creator gave no id.
ALTER TABLE "console"."staff_users" ADD COLUMN IF NOT EXISTS "created_by" text;
--> statement-breakpoint
ALTER TABLE "console"."staff_users" ADD COLUMN IF NOT EXISTS "role_changed_by" text;
--> statement-breakpoint
-- Creating an account that may approve, and raising a role, are change requests of kind 'staff' where four-eyes holds.
ALTER TABLE "console"."change_requests" DROP CONSTRAINT IF EXISTS "change_requests_kind";
--> statement-breakpoint
ALTER TABLE "console"."change_requests" ADD CONSTRAINT "change_requests_kind" CHECK ("kind" IN ('bank', 'credentials', 'setting', 'staff'));
--> statement-breakpoint
-- A checklist item's notes are a history, like a case's notes (docs/reviews.md): a new note is added, none is edited
-- or deleted. The notes an item held so far become its first entries, by whoever marked it, at that time.
CREATE TABLE IF NOT EXISTS "console"."review_checklist_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" text NOT NULL,
	"application_id" text NOT NULL,
	"item" text NOT NULL,
	"author_id" text NOT NULL,
	"author_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "review_checklist_notes_case_idx" ON "console"."review_checklist_notes" USING btree ("environment", "application_id", "item", "id");
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = 'console' AND table_name = 'review_checklist_items' AND column_name = 'note') THEN
    INSERT INTO "console"."review_checklist_notes" ("environment", "application_id", "item", "author_id", "author_email", "at", "text")
      SELECT "environment", "application_id", "item", "marked_by_id", "marked_by_email", "marked_at", "note"
      FROM "console"."review_checklist_items" WHERE "note" IS NOT NULL AND "note" <> '';
    ALTER TABLE "console"."review_checklist_items" DROP COLUMN "note";
  END IF;
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "review_checklist_notes_append_only_rows" ON "console"."review_checklist_notes";
--> statement-breakpoint
CREATE TRIGGER "review_checklist_notes_append_only_rows" BEFORE UPDATE OR DELETE ON "console"."review_checklist_notes"
  FOR EACH ROW EXECUTE FUNCTION "console"."review_notes_append_only"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "review_checklist_notes_append_only_truncate" ON "console"."review_checklist_notes";
--> statement-breakpoint
CREATE TRIGGER "review_checklist_notes_append_only_truncate" BEFORE TRUNCATE ON "console"."review_checklist_notes"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."review_notes_append_only"();
