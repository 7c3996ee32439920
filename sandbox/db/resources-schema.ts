import { sql } from "drizzle-orm";
import { boolean, date, index, jsonb, numeric, text, timestamp } from "drizzle-orm/pg-core";
import type { AnyPgColumn, PgColumnBuilderBase } from "drizzle-orm/pg-core";
import { sandboxSchema } from "./tables";

// Tables of the bank's resources. Each table is named after its resource and each column after the API field it
// holds, so the list/get routes derive their SQL from the contract. Money is numeric(20,2): exact, and PostgreSQL
// prints it with exactly two decimals. Every list is newest first by (created_at, id): each table has that index,
// and each Filterable column has (column, created_at, id) so a filtered page is an index range, never a scan.

const moneyColumn = () => numeric({ precision: 20, scale: 2 });
const at = () => timestamp({ withTimezone: true });
const stamps = () => ({ created_at: at().notNull(), updated_at: at().notNull() });
const json = () => jsonb().$type<Record<string, unknown>>();

/** A resource table: id, timestamps, its columns, and the keyset indexes for its list and each of its filters. */
function resourceTable<C extends Record<string, PgColumnBuilderBase>>(
  name: string,
  columns: C,
  filters: (keyof C & string)[],
  suffixFilters: (keyof C & string)[] = [],
) {
  return sandboxSchema.table(name, { id: text().primaryKey(), ...stamps(), ...columns }, (table) => {
    const column = (key: string) => (table as unknown as Record<string, AnyPgColumn>)[key] as AnyPgColumn;
    return [
      index(`${name}_created_idx`).on(column("created_at"), column("id")),
      ...filters.map((key) => index(`${name}_${key}_idx`).on(column(key), column("created_at"), column("id"))),
      // A suffix filter is a prefix of the reversed text: LIKE 'prefix%' seeks a text_pattern_ops index.
      ...suffixFilters.map((key) =>
        index(`${name}_${key}_reversed_idx`).on(sql`reverse(${column(key)}) text_pattern_ops`, column("created_at"), column("id")),
      ),
    ];
  });
}

export const networkTransfers = resourceTable(
  "network_transfer",
  {
    amount: moneyColumn().notNull(),
    cross_bank: boolean().notNull(),
    description: text(),
    estimated_settlement_at: at().notNull(),
    from_account_id: text().notNull(),
    to_account_id: text().notNull(),
    status: text().notNull(),
    userdata: json(),
    error: text(),
    org_id: text(),
    version: text().notNull(),
    balanced_at: at(),
    bankdata: json(),
  },
  ["cross_bank", "from_account_id", "to_account_id", "status", "org_id"],
);

export const achTransfers = resourceTable(
  "ach",
  {
    account_id: text().notNull(),
    counterparty_id: text().notNull(),
    amount: moneyColumn().notNull(),
    description: text(),
    direction: text().notNull(),
    effective_date: date({ mode: "string" }).notNull(),
    error: text(),
    originator_name: text(),
    scheduled_settlement: at(),
    sec_code: text().notNull(),
    service: text().notNull(),
    status: text().notNull(),
    userdata: json(),
    org_id: text(),
    trace_number: text(),
  },
  ["account_id", "counterparty_id", "direction", "effective_date", "service", "status", "org_id", "trace_number"],
  ["trace_number"],
);

export const fednowPayments = resourceTable(
  "fednow",
  {
    account_id: text().notNull(),
    amount: moneyColumn().notNull(),
    bank_id: text().notNull(),
    org_id: text().notNull(),
    currency: text().notNull(),
    description: text(),
    memo: text(),
    error: text(),
    external_account_number: text().notNull(),
    external_name: text().notNull(),
    external_routing_number: text().notNull(),
    external_status: text(),
    external_reject_reason: json(),
    fed_settlement_date: date({ mode: "string" }).notNull(),
    originator_name: text(),
    payment_id: text().notNull(),
    payment_type: text().notNull(),
    related_fednow_ids: jsonb().$type<string[]>().notNull(),
    security_context: jsonb().$type<{ device_id: string; ip_address: string; user_agent: string }>().notNull(),
    status: text().notNull(),
  },
  ["account_id", "bank_id", "org_id", "external_account_number", "external_status", "payment_id", "status"],
);

export const counterparties = resourceTable(
  "counterparty",
  {
    name: text().notNull(),
    ach: jsonb().$type<{ account_number: string; account_type: string; routing_number: string }>(),
    wire: jsonb().$type<{ account_number: string; routing_number: string; bank_name: string }>(),
    userdata: json(),
  },
  [],
);

export const depositSweeps = resourceTable(
  "deposit_sweep",
  {
    account_id: text().notNull(),
    bank_id: text().notNull(),
    customer_id: text().notNull(),
    customer_email: text().notNull(),
    customer_identifier: text().notNull(),
    network: text().notNull(),
    network_account_id: text().notNull(),
    opted_in: boolean().notNull(),
    sweep_balance: moneyColumn().notNull(),
    threshold_balance: moneyColumn().notNull(),
  },
  [],
);

/** A postal address as applications carry it (the contract's address object). */
export type Address = {
  street_line_1: string;
  street_line_2: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
};

export const personApplications = resourceTable(
  "person_application",
  {
    bankdata: json(),
    citizenship: text().notNull(),
    date_of_birth: date({ mode: "string" }).notNull(),
    email_address: text().notNull(),
    first_name: text().notNull(),
    middle_name: text(),
    last_name: text().notNull(),
    identification_number: text(),
    identification_number_type: text(),
    occupation: text().notNull(),
    person_id: text(),
    phone_number: text().notNull(),
    physical_address: jsonb().$type<Address>().notNull(),
    userdata: json(),
    document_ids: jsonb().$type<string[]>().notNull(),
    mailing_address: jsonb().$type<Address>(),
    secondary_email_address: text(),
  },
  ["person_id"],
);

export const businessApplications = resourceTable(
  "business_application",
  {
    bank_id: text().notNull(),
    bankdata: json(),
    dba: text(),
    description: text().notNull(),
    established_on: date({ mode: "string" }).notNull(),
    identification_number: text(),
    identification_number_type: text(),
    incorporation_state: text().notNull(),
    legal_structure: text().notNull(),
    mailing_address: jsonb().$type<Address>().notNull(),
    physical_address: jsonb().$type<Address>().notNull(),
    naics: text().notNull(),
    naics_description: text().notNull(),
    name: text().notNull(),
    person_applications: jsonb().$type<{ id: string; ownership_percentage: number; roles: string[]; title: string }[]>().notNull(),
    phone_number: text().notNull(),
    tin: text().notNull(),
    urls: jsonb().$type<string[]>().notNull(),
    userdata: json(),
    document_ids: jsonb().$type<string[]>().notNull(),
    publicly_traded: boolean(),
    org_id: text(),
    parent_businesses: jsonb().$type<string[]>().notNull(),
  },
  [],
);

export const cards = resourceTable(
  "card",
  {
    account_id: text().notNull(),
    person_id: text(),
    cardholder_name: text().notNull(),
    form: text().notNull(),
    last_four: text().notNull(),
    expiration_month: text().notNull(),
    expiration_year: text().notNull(),
    status: text().notNull(),
    userdata: json(),
  },
  ["account_id", "status"],
);

export const digitalWalletTokens = resourceTable(
  "digital_wallet_token",
  {
    card_id: text().notNull(),
    status: text().notNull(),
    fulfillment_status: text().notNull(),
    message_type: text().notNull(),
    token_requestor_name: text().notNull(),
    token_requestor_id: text().notNull(),
    token_last_four: text().notNull(),
  },
  ["card_id", "status"],
);

// Credentials and replay protection.

/** API keys: the secret is stored only as a hash (see sandbox/auth/api-keys.ts). */
export const apiKeys = sandboxSchema.table("api_key", {
  id: text().primaryKey(),
  secret_hash: text().notNull(),
  label: text(),
  created_at: at().notNull().defaultNow(),
});

/** Secrets the sandbox generates once and keeps (e.g. the key that signs bearer tokens). */
export const sandboxSecrets = sandboxSchema.table("secret", {
  name: text().primaryKey(),
  value: text().notNull(),
  created_at: at().notNull().defaultNow(),
});

/** DPoP proof ids already used, kept until the proof could no longer be fresh, so a replay is refused. */
export const dpopProofs = sandboxSchema.table("dpop_proof", { jti: text().primaryKey(), expires_at: at().notNull() }, (t) => [
  index("dpop_proof_expires_idx").on(t.expires_at),
]);
