ALTER TABLE "console"."staff_users" ADD COLUMN "sso_subject" text;--> statement-breakpoint
ALTER TABLE "console"."staff_users" ADD CONSTRAINT "staff_users_sso_subject_unique" UNIQUE("sso_subject");