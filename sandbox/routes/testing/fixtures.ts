import type { SandboxDb } from "@/sandbox/db";
import { resourceTables } from "../resource-sources";

// Valid rows of every resource table for tests, each with overridable fields. Times are fixed, so lists have a
// known order: row n of a kind is created n minutes before 2026-03-10T12:00:00Z.

const base = Date.parse("2026-03-10T12:00:00Z");
export const minutesBefore = (n: number) => new Date(base - n * 60_000);
const stamps = (n: number) => ({ created_at: minutesBefore(n), updated_at: minutesBefore(n) });
const address = { street_line_1: "1 Main St", street_line_2: null, city: "Albany", state: "NY", postal_code: "12207", country: "US" };

export const rows = {
  network_transfer: (n: number, over: Partial<(typeof resourceTables.network_transfer)["$inferInsert"]> = {}) => ({
    id: `nt_fixture${n}`, ...stamps(n), amount: "10.00", cross_bank: n % 2 === 0, description: null,
    estimated_settlement_at: minutesBefore(n), from_account_id: "acct_from", to_account_id: "acct_to", status: "pending",
    userdata: null, error: null, org_id: "org_1", version: "v1", balanced_at: null, bankdata: null, ...over,
  }),
  ach: (n: number, over: Partial<(typeof resourceTables.ach)["$inferInsert"]> = {}) => ({
    id: `ach_fixture${String(n).padStart(3, "0")}`, ...stamps(n), account_id: "acct_1", counterparty_id: "cp_1", amount: "1234.50",
    description: "rent", direction: "credit", effective_date: "2026-03-11", error: null, originator_name: null,
    scheduled_settlement: null, sec_code: "ppd", service: "standard", status: "pending", userdata: { n },
    org_id: "org_1", trace_number: `0210000${String(n).padStart(8, "0")}`, ...over,
  }),
  fednow: (n: number, over: Partial<(typeof resourceTables.fednow)["$inferInsert"]> = {}) => ({
    id: `fednow_fixture${n}`, ...stamps(n), account_id: "acct_1", amount: "5.00", bank_id: "bank_1", org_id: "org_1",
    currency: "USD", description: null, memo: null, error: null, external_account_number: "123456789",
    external_name: "Jane Roe", external_routing_number: "021000021", external_status: null, external_reject_reason: null,
    fed_settlement_date: "2026-03-10", originator_name: null, payment_id: `pay_${n}`, payment_type: "credit",
    related_fednow_ids: [], security_context: { device_id: "dev1", ip_address: "10.0.0.1", user_agent: "test" },
    status: "pending", ...over,
  }),
  counterparty: (n: number) => ({
    id: `cp_fixture${n}`, ...stamps(n), name: "Acme Corp",
    ach: { account_number: "000123", account_type: "checking", routing_number: "021000021" }, wire: null, userdata: null,
  }),
  deposit_sweep: (n: number) => ({
    id: `dsa_fixture${n}`, ...stamps(n), account_id: "acct_1", bank_id: "bank_1", customer_id: "cus_1",
    customer_email: "a@example.com", customer_identifier: "****1234", network: "intrafi", network_account_id: "na_1",
    opted_in: true, sweep_balance: "250000.00", threshold_balance: "100000.00",
  }),
  person_application: (n: number, over: Partial<(typeof resourceTables.person_application)["$inferInsert"]> = {}) => ({
    id: `apsn_fixture${n}`, ...stamps(n), bankdata: null, citizenship: "US", date_of_birth: "1990-05-01",
    email_address: "p@example.com", first_name: "Pat", middle_name: null, last_name: "Lee", identification_number: null,
    identification_number_type: null, occupation: "Engineer", person_id: null, phone_number: "+15555550100",
    physical_address: address, userdata: null, document_ids: [], mailing_address: null, secondary_email_address: null, ...over,
  }),
  business_application: (n: number) => ({
    id: `abus_fixture${n}`, ...stamps(n), bank_id: "bank_1", bankdata: null, dba: null, description: "Bakery",
    established_on: "2010-01-02", identification_number: null, identification_number_type: null, incorporation_state: "NY",
    legal_structure: "llc", mailing_address: address, physical_address: address, naics: "311811",
    naics_description: "Retail Bakeries", name: "Bread LLC",
    person_applications: [{ id: "apsn_fixture1", ownership_percentage: 60, roles: ["signer"], title: "CEO" }],
    phone_number: "+15555550101", tin: "123456789", urls: [], userdata: null, document_ids: [], publicly_traded: null,
    org_id: null, parent_businesses: [],
  }),
  card: (n: number, over: Partial<(typeof resourceTables.card)["$inferInsert"]> = {}) => ({
    id: `card_fixture${n}`, ...stamps(n), account_id: "acct_1", person_id: null, cardholder_name: "PAT LEE", form: "virtual",
    last_four: "4242", expiration_month: "09", expiration_year: "2029", status: "active", userdata: null, ...over,
  }),
  digital_wallet_token: (n: number) => ({
    id: `dwt_fixture${n}`, ...stamps(n), card_id: "card_fixture1", status: "active", fulfillment_status: "provisioned",
    message_type: "provisioning", token_requestor_name: "APPLE_PAY", token_requestor_id: "40010030273", token_last_four: "1111",
  }),
};

/** The table of each resource, as the routes read them. */
export const tables = resourceTables;

/** Inserts `count` rows (1..count) of every resource table. */
export async function insertFixtures(db: SandboxDb, count: number): Promise<void> {
  for (const [name, table] of Object.entries(tables)) {
    const make = rows[name as keyof typeof rows] as (n: number) => Record<string, unknown>;
    await db.insert(table).values(Array.from({ length: count }, (_, i) => make(i + 1)) as never);
  }
}
