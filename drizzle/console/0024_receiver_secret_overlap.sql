-- A rotation of the receiver's secret keeps the one it replaces for a short overlap (INDEX_RECEIVER_SECRET_OVERLAP_MINUTES):
-- the bank's deliveries already under way, and subscriptions not yet re-registered, still carry the old secret, and
-- are accepted until `previous_valid_until` instead of being refused and put in error (lib/index/receiver-credentials.ts).
ALTER TABLE "console"."receiver_credentials" ADD COLUMN "previous_sealed_secret" text;
--> statement-breakpoint
ALTER TABLE "console"."receiver_credentials" ADD COLUMN "previous_valid_until" timestamp with time zone;
