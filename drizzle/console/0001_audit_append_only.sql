-- The audit trail is append-only: a record is written once as `pending` before its mutation runs, then finalized once.
CREATE FUNCTION "console"."audit_records_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'audit records are append-only (% refused)', TG_OP;
  END IF;
  IF OLD.outcome <> 'pending' OR NEW.outcome = 'pending'
     OR (NEW.id, NEW.at, NEW.actor_id, NEW.actor_email, NEW.role, NEW.environment, NEW.action, NEW.target_id, NEW.before, NEW.request_id)
        IS DISTINCT FROM
        (OLD.id, OLD.at, OLD.actor_id, OLD.actor_email, OLD.role, OLD.environment, OLD.action, OLD.target_id, OLD.before, OLD.request_id)
  THEN
    RAISE EXCEPTION 'audit records are append-only: only a pending record may be finalized, once';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_records_append_only_rows" BEFORE UPDATE OR DELETE ON "console"."audit_records"
  FOR EACH ROW EXECUTE FUNCTION "console"."audit_records_append_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_records_append_only_truncate" BEFORE TRUNCATE ON "console"."audit_records"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_records_append_only"();
