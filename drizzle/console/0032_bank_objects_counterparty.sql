-- The money movements naming a counterparty, newest first: a counterparty's page lists them in pages and search adds
-- them below its name (lib/customer/movements.ts, lib/search/counterparty-transfers.ts). Found through the full-text
-- index on the id, every one of a counterparty's transfers was read and sorted before the first page (thousands per
-- counterparty at a million transfers); with this index a page is one range read in its order.
CREATE INDEX IF NOT EXISTS "bank_objects_counterparty_idx" ON "console"."bank_objects" USING btree ("environment", (("state" ->> 'counterparty_id')), "bank_created_at" DESC, "id" DESC);
