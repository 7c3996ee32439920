CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE TABLE "sandbox"."webhook_delivery_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"url" text NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"succeeded" boolean NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."events" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"op" text NOT NULL,
	"resource" text NOT NULL,
	"object_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"event" text NOT NULL,
	"status" text DEFAULT 'enabled' NOT NULL,
	"basic_user" text,
	"basic_secret" text,
	"error" text,
	"userdata" jsonb,
	"failures_counted_since" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "sandbox"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "sandbox"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "sandbox"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "sandbox"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_list_idx" ON "sandbox"."webhook_delivery_attempts" USING btree ("webhook_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_failures_idx" ON "sandbox"."webhook_delivery_attempts" USING btree ("webhook_id","attempted_at") WHERE not "sandbox"."webhook_delivery_attempts"."succeeded";--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_delivery_idx" ON "sandbox"."webhook_delivery_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "events_created_at_id_idx" ON "sandbox"."events" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "sandbox"."webhook_deliveries" USING btree ("next_attempt_at") WHERE "sandbox"."webhook_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "sandbox"."webhook_deliveries" USING btree ("webhook_id","state");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "sandbox"."webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhooks_created_at_id_idx" ON "sandbox"."webhooks" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhooks_event_status_idx" ON "sandbox"."webhooks" USING btree ("event","status");