-- Four-eyes on production changes (docs/approvals.md, lib/approvals/): whether an environment holds every change for a
-- second person's approval, and the change requests themselves. Written to be safe if run twice (IF NOT EXISTS,
-- CREATE OR REPLACE, DROP TRIGGER IF EXISTS), since helpers' migrations may be renumbered when merged.
CREATE TABLE IF NOT EXISTS "console"."change_approval_settings" (
	"environment" text PRIMARY KEY NOT NULL,
	"required" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "console"."change_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" text NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"permission" text NOT NULL,
	"target_id" text,
	"operation_id" text,
	"method" text,
	"path" text,
	"params" jsonb,
	"payload" jsonb,
	"sealed_secrets" text,
	"before" jsonb,
	"state" text DEFAULT 'pending' NOT NULL,
	"maker_id" text NOT NULL,
	"maker_email" text NOT NULL,
	"maker_role" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"request_id" text NOT NULL,
	"decided_by_id" text,
	"decided_by_email" text,
	"decided_by_role" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"outcome" text,
	"sent_at" timestamp with time zone,
	"result" jsonb,
	"error" text,
	CONSTRAINT "change_requests_kind" CHECK ("kind" IN ('bank', 'credentials')),
	CONSTRAINT "change_requests_state" CHECK ("state" IN ('pending', 'approved', 'rejected', 'withdrawn')),
	CONSTRAINT "change_requests_outcome" CHECK ("outcome" IS NULL OR ("state" = 'approved' AND "outcome" IN ('succeeded', 'failed'))),
	-- Four-eyes: whoever approves or rejects is not the maker; only the maker withdraws.
	CONSTRAINT "change_requests_four_eyes" CHECK (
		"state" = 'pending'
		OR ("state" = 'withdrawn' AND "decided_by_id" = "maker_id")
		OR ("state" IN ('approved', 'rejected') AND "decided_by_id" IS NOT NULL AND "decided_by_id" <> "maker_id")
	)
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "change_requests_list_idx" ON "console"."change_requests" USING btree ("environment", "state", "id");
--> statement-breakpoint
-- A request is kept: never deleted; decided once (pending -> approved, rejected or withdrawn), and an approved one gets
-- its outcome once. Nothing of what was asked, by whom or when changes.
CREATE OR REPLACE FUNCTION "console"."change_requests_decide_once"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'change requests are kept (% refused)', TG_OP;
  END IF;
  IF (NEW.id, NEW.environment, NEW.kind, NEW.action, NEW.permission, NEW.target_id, NEW.operation_id, NEW.method, NEW.path, NEW.params,
      NEW.payload, NEW.sealed_secrets, NEW.before, NEW.maker_id, NEW.maker_email, NEW.maker_role, NEW.requested_at, NEW.expires_at, NEW.request_id)
     IS DISTINCT FROM
     (OLD.id, OLD.environment, OLD.kind, OLD.action, OLD.permission, OLD.target_id, OLD.operation_id, OLD.method, OLD.path, OLD.params,
      OLD.payload, OLD.sealed_secrets, OLD.before, OLD.maker_id, OLD.maker_email, OLD.maker_role, OLD.requested_at, OLD.expires_at, OLD.request_id)
  THEN
    RAISE EXCEPTION 'change requests are kept: what was asked, by whom and when never changes';
  END IF;
  IF OLD.state = 'pending' AND NEW.state <> 'pending' AND NEW.decided_by_id IS NOT NULL AND NEW.decided_at IS NOT NULL AND NEW.outcome IS NULL THEN
    RETURN NEW;
  END IF;
  IF OLD.state = 'approved' AND NEW.state = 'approved' AND OLD.outcome IS NULL AND NEW.outcome IS NOT NULL
     AND (NEW.decided_by_id, NEW.decided_by_email, NEW.decided_by_role, NEW.decided_at, NEW.decision_note)
         IS NOT DISTINCT FROM (OLD.decided_by_id, OLD.decided_by_email, OLD.decided_by_role, OLD.decided_at, OLD.decision_note)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'change requests are kept: a pending request is decided once, and an approved one gets its outcome once';
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "change_requests_decide_once_rows" ON "console"."change_requests";
--> statement-breakpoint
CREATE TRIGGER "change_requests_decide_once_rows" BEFORE UPDATE OR DELETE ON "console"."change_requests"
  FOR EACH ROW EXECUTE FUNCTION "console"."change_requests_decide_once"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "change_requests_decide_once_truncate" ON "console"."change_requests";
--> statement-breakpoint
CREATE TRIGGER "change_requests_decide_once_truncate" BEFORE TRUNCATE ON "console"."change_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."change_requests_decide_once"();
