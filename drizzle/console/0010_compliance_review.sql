CREATE TABLE "console"."review_cases" (
	"environment" text NOT NULL,
	"application_id" text NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"assignee_id" text,
	"assignee_email" text,
	"assigned_at" timestamp with time zone,
	"decision" text,
	"reason_code" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_cases_environment_application_id_pk" PRIMARY KEY("environment","application_id")
);
--> statement-breakpoint
CREATE TABLE "console"."review_checklist_items" (
	"environment" text NOT NULL,
	"application_id" text NOT NULL,
	"item" text NOT NULL,
	"mark" text NOT NULL,
	"note" text,
	"marked_by_id" text NOT NULL,
	"marked_by_email" text NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_checklist_items_environment_application_id_item_pk" PRIMARY KEY("environment","application_id","item")
);
--> statement-breakpoint
CREATE TABLE "console"."review_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" text NOT NULL,
	"application_id" text NOT NULL,
	"decision" text NOT NULL,
	"reason_code" text NOT NULL,
	"note" text NOT NULL,
	"state" text DEFAULT 'proposed' NOT NULL,
	"proposed_by_id" text NOT NULL,
	"proposed_by_email" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_by_id" text,
	"resolved_by_email" text,
	"resolved_at" timestamp with time zone,
	"resolution_note" text,
	CONSTRAINT "review_decisions_four_eyes" CHECK ("console"."review_decisions"."resolved_by_id" IS NULL OR "console"."review_decisions"."resolved_by_id" <> "console"."review_decisions"."proposed_by_id")
);
--> statement-breakpoint
CREATE TABLE "console"."review_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" text NOT NULL,
	"application_id" text NOT NULL,
	"author_id" text NOT NULL,
	"author_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"text" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "review_cases_assignee_idx" ON "console"."review_cases" USING btree ("environment","assignee_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_decisions_one_proposed" ON "console"."review_decisions" USING btree ("environment","application_id") WHERE "console"."review_decisions"."state" = 'proposed';--> statement-breakpoint
CREATE INDEX "review_decisions_case_idx" ON "console"."review_decisions" USING btree ("environment","application_id","id");--> statement-breakpoint
CREATE INDEX "review_notes_case_idx" ON "console"."review_notes" USING btree ("environment","application_id","id");--> statement-breakpoint
-- A case's notes are append-only: written once, never edited or deleted (docs/reviews.md).
CREATE FUNCTION "console"."review_notes_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'review notes are append-only (% refused)', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "review_notes_append_only_rows" BEFORE UPDATE OR DELETE ON "console"."review_notes"
  FOR EACH ROW EXECUTE FUNCTION "console"."review_notes_append_only"();
--> statement-breakpoint
CREATE TRIGGER "review_notes_append_only_truncate" BEFORE TRUNCATE ON "console"."review_notes"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."review_notes_append_only"();
--> statement-breakpoint
-- A proposed decision is resolved once (confirmed or returned) and nothing else of it changes; none is deleted.
CREATE FUNCTION "console"."review_decisions_resolve_once"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'review decisions are kept (% refused)', TG_OP;
  END IF;
  IF OLD.state <> 'proposed' OR NEW.state = 'proposed' OR NEW.resolved_by_id IS NULL OR NEW.resolved_at IS NULL
     OR (NEW.id, NEW.environment, NEW.application_id, NEW.decision, NEW.reason_code, NEW.note, NEW.proposed_by_id, NEW.proposed_by_email, NEW.proposed_at)
        IS DISTINCT FROM
        (OLD.id, OLD.environment, OLD.application_id, OLD.decision, OLD.reason_code, OLD.note, OLD.proposed_by_id, OLD.proposed_by_email, OLD.proposed_at)
  THEN
    RAISE EXCEPTION 'review decisions are kept: only a proposed decision may be resolved, once';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "review_decisions_resolve_once_rows" BEFORE UPDATE OR DELETE ON "console"."review_decisions"
  FOR EACH ROW EXECUTE FUNCTION "console"."review_decisions_resolve_once"();
--> statement-breakpoint
CREATE TRIGGER "review_decisions_resolve_once_truncate" BEFORE TRUNCATE ON "console"."review_decisions"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."review_decisions_resolve_once"();
