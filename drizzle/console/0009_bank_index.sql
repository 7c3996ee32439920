CREATE TABLE "console"."bank_event_inbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" text NOT NULL,
	"event" text NOT NULL,
	"op" text NOT NULL,
	"resource" text NOT NULL,
	"object_id" text NOT NULL,
	"url" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deliveries" integer DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"outcome" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"error" text,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "console"."bank_object_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" text NOT NULL,
	"resource" text NOT NULL,
	"object_id" text NOT NULL,
	"version" integer NOT NULL,
	"state" jsonb,
	"changes" jsonb NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"event_id" bigint
);
--> statement-breakpoint
CREATE TABLE "console"."bank_objects" (
	"environment" text NOT NULL,
	"id" text NOT NULL,
	"resource" text NOT NULL,
	"state" jsonb,
	"bank_updated_at" timestamp with time zone,
	"bank_created_at" timestamp with time zone,
	"version" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"gone_at" timestamp with time zone,
	CONSTRAINT "bank_objects_environment_id_pk" PRIMARY KEY("environment","id")
);
--> statement-breakpoint
CREATE TABLE "console"."index_backfill" (
	"environment" text NOT NULL,
	"resource" text NOT NULL,
	"cursor" text,
	"objects" integer DEFAULT 0 NOT NULL,
	"pages" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "index_backfill_environment_resource_pk" PRIMARY KEY("environment","resource")
);
--> statement-breakpoint
CREATE TABLE "console"."receiver_credentials" (
	"environment" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"sealed_secret" text NOT NULL,
	"key_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "bank_event_inbox_one_waiting" ON "console"."bank_event_inbox" USING btree ("environment","event","object_id") WHERE "console"."bank_event_inbox"."state" = 'pending' AND "console"."bank_event_inbox"."attempts" = 0;--> statement-breakpoint
CREATE INDEX "bank_event_inbox_due_idx" ON "console"."bank_event_inbox" USING btree ("next_attempt_at") WHERE "console"."bank_event_inbox"."state" <> 'processed';--> statement-breakpoint
CREATE INDEX "bank_event_inbox_received_idx" ON "console"."bank_event_inbox" USING btree ("environment","received_at","id");--> statement-breakpoint
CREATE INDEX "bank_event_inbox_object_idx" ON "console"."bank_event_inbox" USING btree ("environment","object_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_object_versions_object_idx" ON "console"."bank_object_versions" USING btree ("environment","object_id","version");--> statement-breakpoint
CREATE INDEX "bank_object_versions_seen_idx" ON "console"."bank_object_versions" USING btree ("seen_at");--> statement-breakpoint
CREATE INDEX "bank_objects_resource_idx" ON "console"."bank_objects" USING btree ("environment","resource","bank_created_at");--> statement-breakpoint
-- A rotation of the receiver's credentials raises the access version, so every console process drops the secret it
-- cached for checking notifications (lib/index/receiver-credentials.ts).
CREATE TRIGGER "receiver_credentials_access_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "console"."receiver_credentials"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."raise_access_version"();
--> statement-breakpoint
-- Tells every console process's live feed (lib/index/live-feed.ts) that new versions were committed.
CREATE FUNCTION "console"."announce_bank_index"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('console_bank_index', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "bank_object_versions_announce" AFTER INSERT ON "console"."bank_object_versions"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."announce_bank_index"();
