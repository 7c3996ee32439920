CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE TABLE "sandbox"."ach" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"account_id" text NOT NULL,
	"counterparty_id" text NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"description" text,
	"direction" text NOT NULL,
	"effective_date" date NOT NULL,
	"error" text,
	"originator_name" text,
	"scheduled_settlement" timestamp with time zone,
	"sec_code" text NOT NULL,
	"service" text NOT NULL,
	"status" text NOT NULL,
	"userdata" jsonb,
	"org_id" text,
	"trace_number" text
);
--> statement-breakpoint
CREATE TABLE "sandbox"."api_key" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_hash" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."business_application" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"bank_id" text NOT NULL,
	"bankdata" jsonb,
	"dba" text,
	"description" text NOT NULL,
	"established_on" date NOT NULL,
	"identification_number" text,
	"identification_number_type" text,
	"incorporation_state" text NOT NULL,
	"legal_structure" text NOT NULL,
	"mailing_address" jsonb NOT NULL,
	"physical_address" jsonb NOT NULL,
	"naics" text NOT NULL,
	"naics_description" text NOT NULL,
	"name" text NOT NULL,
	"person_applications" jsonb NOT NULL,
	"phone_number" text NOT NULL,
	"tin" text NOT NULL,
	"urls" jsonb NOT NULL,
	"userdata" jsonb,
	"document_ids" jsonb NOT NULL,
	"publicly_traded" boolean,
	"org_id" text,
	"parent_businesses" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."card" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"account_id" text NOT NULL,
	"person_id" text,
	"cardholder_name" text NOT NULL,
	"form" text NOT NULL,
	"last_four" text NOT NULL,
	"expiration_month" text NOT NULL,
	"expiration_year" text NOT NULL,
	"status" text NOT NULL,
	"userdata" jsonb
);
--> statement-breakpoint
CREATE TABLE "sandbox"."counterparty" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"name" text NOT NULL,
	"ach" jsonb,
	"wire" jsonb,
	"userdata" jsonb
);
--> statement-breakpoint
CREATE TABLE "sandbox"."deposit_sweep" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"account_id" text NOT NULL,
	"bank_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"customer_email" text NOT NULL,
	"customer_identifier" text NOT NULL,
	"network" text NOT NULL,
	"network_account_id" text NOT NULL,
	"opted_in" boolean NOT NULL,
	"sweep_balance" numeric(20, 2) NOT NULL,
	"threshold_balance" numeric(20, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."digital_wallet_token" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"card_id" text NOT NULL,
	"status" text NOT NULL,
	"fulfillment_status" text NOT NULL,
	"message_type" text NOT NULL,
	"token_requestor_name" text NOT NULL,
	"token_requestor_id" text NOT NULL,
	"token_last_four" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."dpop_proof" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."fednow" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"account_id" text NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"bank_id" text NOT NULL,
	"org_id" text NOT NULL,
	"currency" text NOT NULL,
	"description" text,
	"memo" text,
	"error" text,
	"external_account_number" text NOT NULL,
	"external_name" text NOT NULL,
	"external_routing_number" text NOT NULL,
	"external_status" text,
	"external_reject_reason" jsonb,
	"fed_settlement_date" date NOT NULL,
	"originator_name" text,
	"payment_id" text NOT NULL,
	"payment_type" text NOT NULL,
	"related_fednow_ids" jsonb NOT NULL,
	"security_context" jsonb NOT NULL,
	"status" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."network_transfer" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"cross_bank" boolean NOT NULL,
	"description" text,
	"estimated_settlement_at" timestamp with time zone NOT NULL,
	"from_account_id" text NOT NULL,
	"to_account_id" text NOT NULL,
	"status" text NOT NULL,
	"userdata" jsonb,
	"error" text,
	"org_id" text,
	"version" text NOT NULL,
	"balanced_at" timestamp with time zone,
	"bankdata" jsonb
);
--> statement-breakpoint
CREATE TABLE "sandbox"."person_application" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"bankdata" jsonb,
	"citizenship" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"email_address" text NOT NULL,
	"first_name" text NOT NULL,
	"middle_name" text,
	"last_name" text NOT NULL,
	"identification_number" text,
	"identification_number_type" text,
	"occupation" text NOT NULL,
	"person_id" text,
	"phone_number" text NOT NULL,
	"physical_address" jsonb NOT NULL,
	"userdata" jsonb,
	"document_ids" jsonb NOT NULL,
	"mailing_address" jsonb,
	"secondary_email_address" text
);
--> statement-breakpoint
CREATE TABLE "sandbox"."secret" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."webhook_delivery_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"webhook_id" text NOT NULL,
	"event" text NOT NULL,
	"op" text NOT NULL,
	"object_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"url" text NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"succeeded" boolean NOT NULL,
	"error" text
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
CREATE INDEX "ach_created_idx" ON "sandbox"."ach" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "ach_account_id_idx" ON "sandbox"."ach" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ach_counterparty_id_idx" ON "sandbox"."ach" USING btree ("counterparty_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ach_direction_idx" ON "sandbox"."ach" USING btree ("direction","created_at","id");--> statement-breakpoint
CREATE INDEX "ach_effective_date_idx" ON "sandbox"."ach" USING btree ("effective_date","created_at","id");--> statement-breakpoint
CREATE INDEX "ach_service_idx" ON "sandbox"."ach" USING btree ("service","created_at","id");--> statement-breakpoint
CREATE INDEX "ach_status_idx" ON "sandbox"."ach" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "ach_org_id_idx" ON "sandbox"."ach" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ach_trace_number_idx" ON "sandbox"."ach" USING btree ("trace_number","created_at","id");--> statement-breakpoint
CREATE INDEX "business_application_created_idx" ON "sandbox"."business_application" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "card_created_idx" ON "sandbox"."card" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "card_account_id_idx" ON "sandbox"."card" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "card_status_idx" ON "sandbox"."card" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "counterparty_created_idx" ON "sandbox"."counterparty" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "deposit_sweep_created_idx" ON "sandbox"."deposit_sweep" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "digital_wallet_token_created_idx" ON "sandbox"."digital_wallet_token" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "digital_wallet_token_card_id_idx" ON "sandbox"."digital_wallet_token" USING btree ("card_id","created_at","id");--> statement-breakpoint
CREATE INDEX "digital_wallet_token_status_idx" ON "sandbox"."digital_wallet_token" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "dpop_proof_expires_idx" ON "sandbox"."dpop_proof" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "fednow_created_idx" ON "sandbox"."fednow" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "fednow_account_id_idx" ON "sandbox"."fednow" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fednow_bank_id_idx" ON "sandbox"."fednow" USING btree ("bank_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fednow_org_id_idx" ON "sandbox"."fednow" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fednow_external_account_number_idx" ON "sandbox"."fednow" USING btree ("external_account_number","created_at","id");--> statement-breakpoint
CREATE INDEX "fednow_external_status_idx" ON "sandbox"."fednow" USING btree ("external_status","created_at","id");--> statement-breakpoint
CREATE INDEX "fednow_payment_id_idx" ON "sandbox"."fednow" USING btree ("payment_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fednow_status_idx" ON "sandbox"."fednow" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "network_transfer_created_idx" ON "sandbox"."network_transfer" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "network_transfer_cross_bank_idx" ON "sandbox"."network_transfer" USING btree ("cross_bank","created_at","id");--> statement-breakpoint
CREATE INDEX "network_transfer_from_account_id_idx" ON "sandbox"."network_transfer" USING btree ("from_account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "network_transfer_to_account_id_idx" ON "sandbox"."network_transfer" USING btree ("to_account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "network_transfer_status_idx" ON "sandbox"."network_transfer" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "network_transfer_org_id_idx" ON "sandbox"."network_transfer" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "person_application_created_idx" ON "sandbox"."person_application" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "person_application_person_id_idx" ON "sandbox"."person_application" USING btree ("person_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_list_idx" ON "sandbox"."webhook_delivery_attempts" USING btree ("webhook_id","attempted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_failures_idx" ON "sandbox"."webhook_delivery_attempts" USING btree ("webhook_id","attempted_at") WHERE not "sandbox"."webhook_delivery_attempts"."succeeded";--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_delivery_idx" ON "sandbox"."webhook_delivery_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "events_created_at_id_idx" ON "sandbox"."events" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "sandbox"."webhook_deliveries" USING btree ("next_attempt_at") WHERE "sandbox"."webhook_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "sandbox"."webhook_deliveries" USING btree ("webhook_id","state");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "sandbox"."webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhooks_created_at_id_idx" ON "sandbox"."webhooks" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhooks_event_status_idx" ON "sandbox"."webhooks" USING btree ("event","status");