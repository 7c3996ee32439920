-- The search over the index of the bank (docs/search.md, lib/search/). pg_trgm lives in the console schema (the
-- migration role may not create in public); every use names it: console.word_similarity, OPERATOR(console.<%),
-- console.gin_trgm_ops. PGlite loads the extension at start (lib/db/embedded.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA console;
--> statement-breakpoint
-- One search document per indexed object, from its latest state, written with it (lib/index/store.ts). Its text is
-- split by who may match it: public_text (fields every role sees in full), userdata_text (userdata keys and values:
-- roles that may edit userdata or reveal personal data) and personal_text (fields masked for viewers: pii:reveal).
CREATE TABLE "console"."bank_search" (
	"environment" text NOT NULL,
	"id" text NOT NULL,
	"resource" text NOT NULL,
	"public_text" text NOT NULL,
	"userdata_text" text NOT NULL,
	"personal_text" text NOT NULL,
	"amount_cents" bigint,
	CONSTRAINT "bank_search_environment_id_pk" PRIMARY KEY("environment","id")
);
--> statement-breakpoint
CREATE INDEX "bank_search_public_tsv_idx" ON "console"."bank_search" USING gin (to_tsvector('simple'::regconfig, "public_text"));
--> statement-breakpoint
CREATE INDEX "bank_search_userdata_tsv_idx" ON "console"."bank_search" USING gin (to_tsvector('simple'::regconfig, "userdata_text"));
--> statement-breakpoint
CREATE INDEX "bank_search_personal_tsv_idx" ON "console"."bank_search" USING gin (to_tsvector('simple'::regconfig, "personal_text"));
--> statement-breakpoint
CREATE INDEX "bank_search_public_trgm_idx" ON "console"."bank_search" USING gin ("public_text" console.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "bank_search_userdata_trgm_idx" ON "console"."bank_search" USING gin ("userdata_text" console.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "bank_search_personal_trgm_idx" ON "console"."bank_search" USING gin ("personal_text" console.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "bank_search_amount_idx" ON "console"."bank_search" USING btree ("environment","amount_cents");
--> statement-breakpoint
CREATE INDEX "bank_search_id_idx" ON "console"."bank_search" USING btree ("id" text_pattern_ops);
