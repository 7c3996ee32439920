ALTER TABLE "sandbox"."webhook_delivery_attempts" ADD COLUMN "request_body" text;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_delivery_attempts" ADD COLUMN "response_body" text;