CREATE SCHEMA "console";
--> statement-breakpoint
CREATE TABLE "console"."audit_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT date_trunc('second', now()) NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text NOT NULL,
	"role" text NOT NULL,
	"environment" text,
	"action" text NOT NULL,
	"target_id" text,
	"before" jsonb,
	"after" jsonb,
	"outcome" text NOT NULL,
	"error" text,
	"request_id" text NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "console"."bank_credentials" (
	"environment" text PRIMARY KEY NOT NULL,
	"base_url" text NOT NULL,
	"auth_type" text NOT NULL,
	"sealed_auth" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."staff_users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text,
	"locked" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE INDEX "audit_records_at_idx" ON "console"."audit_records" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_records_actor_idx" ON "console"."audit_records" USING btree ("actor_email","at");--> statement-breakpoint
CREATE INDEX "audit_records_target_idx" ON "console"."audit_records" USING btree ("target_id","at");