-- The audit trail becomes tamper-evident (docs/audit-trail.md). On insert the trigger sets `at` and the pending state
-- itself (no back-dated or pre-finalized record); a pending record may be finalized once, within an hour, and the
-- trigger stamps `finished_at`. Every insert and every finalization appends a link to console.audit_chain whose hash
-- covers the record's content at that moment and the previous link's hash. `npm run audit:verify` recomputes it.
CREATE TABLE "console"."audit_chain" (
  "seq" bigserial PRIMARY KEY,
  "record_id" bigint NOT NULL,
  "kind" text NOT NULL CHECK ("kind" IN ('insert', 'finalize')),
  "prev_hash" text NOT NULL,
  "hash" text NOT NULL,
  UNIQUE ("record_id", "kind")
);
--> statement-breakpoint
-- What a link's hash covers, for each kind (lib/audit/chain.ts recomputes exactly this, without using this function).
CREATE FUNCTION "console"."audit_chain_content"(kind text, r "console"."audit_records") RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind
    WHEN 'insert' THEN jsonb_build_array('insert', r.id, floor(extract(epoch FROM r.at))::bigint, r.actor_id, r.actor_email, r.role,
      r.environment, r.action, r.target_id, r.before, r.request_id)::text
    ELSE jsonb_build_array('finalize', r.id, r.outcome, r."after", r.error, floor(extract(epoch FROM r.finished_at))::bigint)::text
  END
$$;
--> statement-breakpoint
-- Runs as its owner (SECURITY DEFINER): the console's role may not write audit_chain itself, only through this trigger.
CREATE FUNCTION "console"."audit_records_guard"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = console, pg_catalog AS $$
DECLARE
  kind text;
  previous text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.at := date_trunc('second', now());
    NEW.outcome := 'pending';
    NEW."after" := NULL;
    NEW.error := NULL;
    NEW.finished_at := NULL;
    kind := 'insert';
  ELSIF TG_OP = 'UPDATE' THEN
    IF OLD.outcome <> 'pending' OR NEW.outcome = 'pending'
       OR (NEW.id, NEW.at, NEW.actor_id, NEW.actor_email, NEW.role, NEW.environment, NEW.action, NEW.target_id, NEW.before, NEW.request_id)
          IS DISTINCT FROM
          (OLD.id, OLD.at, OLD.actor_id, OLD.actor_email, OLD.role, OLD.environment, OLD.action, OLD.target_id, OLD.before, OLD.request_id)
    THEN
      RAISE EXCEPTION 'audit records are append-only: only a pending record may be finalized, once';
    END IF;
    IF OLD.at < now() - interval '1 hour' THEN
      RAISE EXCEPTION 'audit records are append-only: a pending record may be finalized within an hour of its start';
    END IF;
    NEW.finished_at := date_trunc('second', now());
    kind := 'finalize';
  ELSE
    RAISE EXCEPTION 'audit records are append-only (% refused)', TG_OP;
  END IF;
  -- One link at a time: the lock is held until this transaction commits, so links follow each other in `seq` order.
  PERFORM pg_advisory_xact_lock(7240251);
  SELECT c.hash INTO previous FROM console.audit_chain c ORDER BY c.seq DESC LIMIT 1;
  previous := coalesce(previous, '');
  INSERT INTO console.audit_chain (record_id, kind, prev_hash, hash)
    VALUES (NEW.id, kind, previous, encode(sha256(convert_to(previous || '|' || console.audit_chain_content(kind, NEW), 'UTF8')), 'hex'));
  RETURN NEW;
END;
$$;
--> statement-breakpoint
DROP TRIGGER "audit_records_append_only_rows" ON "console"."audit_records";
--> statement-breakpoint
DROP TRIGGER "audit_records_append_only_truncate" ON "console"."audit_records";
--> statement-breakpoint
DROP FUNCTION "console"."audit_records_append_only"();
--> statement-breakpoint
-- The records kept so far are linked in id order, each insert then (when finalized) its finalization.
DO $$
DECLARE
  r console.audit_records;
  previous text := '';
  next_hash text;
BEGIN
  FOR r IN SELECT * FROM console.audit_records ORDER BY id LOOP
    next_hash := encode(sha256(convert_to(previous || '|' || console.audit_chain_content('insert', r), 'UTF8')), 'hex');
    INSERT INTO console.audit_chain (record_id, kind, prev_hash, hash) VALUES (r.id, 'insert', previous, next_hash);
    previous := next_hash;
    IF r.outcome <> 'pending' THEN
      next_hash := encode(sha256(convert_to(previous || '|' || console.audit_chain_content('finalize', r), 'UTF8')), 'hex');
      INSERT INTO console.audit_chain (record_id, kind, prev_hash, hash) VALUES (r.id, 'finalize', previous, next_hash);
      previous := next_hash;
    END IF;
  END LOOP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_records_guard_rows" BEFORE INSERT OR UPDATE OR DELETE ON "console"."audit_records"
  FOR EACH ROW EXECUTE FUNCTION "console"."audit_records_guard"();
--> statement-breakpoint
CREATE TRIGGER "audit_records_guard_truncate" BEFORE TRUNCATE ON "console"."audit_records"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_records_guard"();
--> statement-breakpoint
-- audit_chain itself: append-only for everyone but its owner's migrations.
CREATE FUNCTION "console"."audit_chain_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit chain is append-only (% refused)', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_chain_append_only_rows" BEFORE UPDATE OR DELETE ON "console"."audit_chain"
  FOR EACH ROW EXECUTE FUNCTION "console"."audit_chain_append_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_chain_append_only_truncate" BEFORE TRUNCATE ON "console"."audit_chain"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_chain_append_only"();
