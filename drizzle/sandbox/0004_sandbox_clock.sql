CREATE TABLE "sandbox"."clock" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"offset_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "clock_single_row" CHECK ("sandbox"."clock"."id" = 1)
);
