-- Home's exact counts (lib/home/index-counts.ts) grouped every object of the index by status on every load: 511 ms
-- at 695,150 objects on PostgreSQL (a bitmap heap scan of 60,593 blocks), more at a million and on PGlite. The
-- counts are kept instead, per environment, kind and status, by the statement that changes the objects and in its
-- transaction: reading them is a handful of rows however large the index grows.
CREATE TABLE "console"."bank_object_counts" (
	"environment" text NOT NULL,
	"resource" text NOT NULL,
	"status" text NOT NULL,
	"objects" bigint DEFAULT 0 NOT NULL,
	"without_person" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "bank_object_counts_environment_resource_status_pk" PRIMARY KEY("environment","resource","status")
);
--> statement-breakpoint
-- One function for the statement triggers below: it adds what its statement wrote and takes away what it
-- replaced or deleted, grouped, so a batch of a thousand objects moves a few rows and a change that keeps an object's
-- status moves none. `status` is '' for an object without one; `without_person` counts person applications without a
-- person yet (no person_id). Rows are written in key order, so two statements never wait on each other's rows
-- crosswise. The statement is built per event because a transition table exists only for the events it was declared
-- for. SECURITY DEFINER: it runs as the migration role that owns the counts, so the console's runtime role only reads
-- them (lib/db/roles.ts) and only its changes to objects move them.
CREATE FUNCTION "console"."count_bank_objects"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
DECLARE
  added CONSTANT text := 'SELECT environment, resource, state, 1 AS sign FROM added_objects';
  removed CONSTANT text := 'SELECT environment, resource, state, -1 AS sign FROM removed_objects';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "console"."bank_object_counts";
    RETURN NULL;
  END IF;
  EXECUTE format($statement$
    INSERT INTO "console"."bank_object_counts" AS counted ("environment", "resource", "status", "objects", "without_person")
    SELECT environment, resource, coalesce(state->>'status', ''), sum(sign),
           coalesce(sum(sign) FILTER (WHERE resource = 'person_application' AND coalesce(state->'person_id', 'null') = 'null'), 0)
    FROM (%s) AS changed
    WHERE state IS NOT NULL
    GROUP BY 1, 2, 3
    HAVING sum(sign) <> 0 OR coalesce(sum(sign) FILTER (WHERE resource = 'person_application' AND coalesce(state->'person_id', 'null') = 'null'), 0) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT ("environment", "resource", "status") DO UPDATE
      SET "objects" = counted."objects" + excluded."objects", "without_person" = counted."without_person" + excluded."without_person"
    $statement$,
    CASE TG_OP WHEN 'INSERT' THEN added WHEN 'DELETE' THEN removed ELSE added || ' UNION ALL ' || removed END);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "bank_objects_counted_insert" AFTER INSERT ON "console"."bank_objects"
  REFERENCING NEW TABLE AS added_objects FOR EACH STATEMENT EXECUTE FUNCTION "console"."count_bank_objects"();
--> statement-breakpoint
CREATE TRIGGER "bank_objects_counted_update" AFTER UPDATE ON "console"."bank_objects"
  REFERENCING OLD TABLE AS removed_objects NEW TABLE AS added_objects FOR EACH STATEMENT EXECUTE FUNCTION "console"."count_bank_objects"();
--> statement-breakpoint
CREATE TRIGGER "bank_objects_counted_delete" AFTER DELETE ON "console"."bank_objects"
  REFERENCING OLD TABLE AS removed_objects FOR EACH STATEMENT EXECUTE FUNCTION "console"."count_bank_objects"();
--> statement-breakpoint
CREATE TRIGGER "bank_objects_counted_truncate" AFTER TRUNCATE ON "console"."bank_objects"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."count_bank_objects"();
--> statement-breakpoint
-- The counts of what the index already holds; from here on the triggers keep them.
INSERT INTO "console"."bank_object_counts" ("environment", "resource", "status", "objects", "without_person")
SELECT environment, resource, coalesce(state->>'status', ''), count(*),
       count(*) FILTER (WHERE resource = 'person_application' AND coalesce(state->'person_id', 'null') = 'null')
FROM "console"."bank_objects" WHERE state IS NOT NULL GROUP BY 1, 2, 3;
