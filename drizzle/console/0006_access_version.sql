CREATE TABLE "console"."access_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "access_version_one_row" CHECK ("console"."access_version"."id")
);
--> statement-breakpoint
INSERT INTO "console"."access_version" ("id", "version") VALUES (true, 0);
--> statement-breakpoint
-- Raised in the writing transaction itself, so a cache that reads an unchanged number has seen every committed change.
-- SECURITY DEFINER: it runs as the migration role that owns the table, so the console's runtime role needs only to
-- read the version (lib/db/roles.ts) and can never set it back.
CREATE FUNCTION "console"."raise_access_version"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  UPDATE "console"."access_version" SET "version" = "version" + 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "staff_users_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "console"."staff_users"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."raise_access_version"();
--> statement-breakpoint
CREATE TRIGGER "bank_credentials_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "console"."bank_credentials"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."raise_access_version"();
--> statement-breakpoint
CREATE TRIGGER "staff_sessions_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "console"."staff_sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."raise_access_version"();
