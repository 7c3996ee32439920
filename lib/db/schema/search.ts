import { sql } from "drizzle-orm";
import { bigint, customType, primaryKey, text } from "drizzle-orm/pg-core";
import { consoleSchema, environment } from "./base";

/** A PostgreSQL `tsvector`, read only by SQL (the search), never by TypeScript. */
const textSearchVector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * One search document per indexed object, from its latest state (lib/search/document.ts), written in the same
 * transaction as the object (lib/index/store.ts). The text is split by who may match it; the full-text and trigram
 * indexes on each are expressions in migration 0012_index_search.sql (docs/search.md).
 */
export const bankSearch = consoleSchema.table(
  "bank_search",
  {
    environment: environment().notNull(),
    id: text("id").notNull(),
    resource: text("resource").notNull(),
    /** Fields every role sees in full (and the visible last four of account numbers). */
    publicText: text("public_text").notNull(),
    /** userdata keys and values: roles that may edit userdata or reveal personal data. */
    userdataText: text("userdata_text").notNull(),
    /** Fields masked, fully or partly, for viewers: roles holding `pii:reveal` only. */
    personalText: text("personal_text").notNull(),
    /** The object's `amount` in cents, when it has one. */
    amountCents: bigint("amount_cents", { mode: "number" }),
    /** Full-text vectors of the three texts, stored so a search reads them instead of parsing every row it visits. */
    publicVector: textSearchVector("public_tsv").generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, public_text)`),
    userdataVector: textSearchVector("userdata_tsv").generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, userdata_text)`),
    personalVector: textSearchVector("personal_tsv").generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, personal_text)`),
  },
  (table) => [primaryKey({ columns: [table.environment, table.id] })],
);
