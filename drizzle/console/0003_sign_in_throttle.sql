CREATE TABLE "console"."sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"admitted" integer NOT NULL,
	"last_admitted_at" timestamp with time zone NOT NULL,
	"last_attempt_id" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttle_last_admitted_idx" ON "console"."sign_in_throttle" USING btree ("last_admitted_at");