-- When a session was last used, recorded at most once a minute (lib/auth/sessions.ts): a session unused for
-- SESSION_IDLE_TIMEOUT_MINUTES is ended. Recording it must not drop every console process's access cache, so the
-- sessions' access-version trigger no longer fires for an update that sets only this column.
ALTER TABLE "console"."staff_sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
DROP TRIGGER "staff_sessions_access_version" ON "console"."staff_sessions";
--> statement-breakpoint
CREATE TRIGGER "staff_sessions_access_version"
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "id", "user_id", "created_at", "expires_at", "user_agent", "address"
  ON "console"."staff_sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."raise_access_version"();
