/** Bank objects valid per lib/contract, for unit tests that need one of each without a bank (masking rules). */
const stamps = { created_at: "2026-11-20T10:00:00Z", updated_at: "2026-11-20T10:00:00Z" };
const address = { street_line_1: "1 Main St", street_line_2: null, city: "Albany", state: "NY", postal_code: "12207", country: "US" };

export const bankObjects = {
  networkTransfer: {
    id: "nt_1", amount: "12.50", ...stamps, cross_bank: false, description: null, estimated_settlement_at: stamps.created_at,
    from_account_id: "acct_1", to_account_id: "acct_2", status: "pending", userdata: { ticket: 1 }, error: null, org_id: null,
    version: "v1", balanced_at: null, bankdata: null,
  },
  personApplication: {
    id: "apsn_1", bankdata: null, citizenship: "US", ...stamps, date_of_birth: "1985-04-12", email_address: "ada@example.com",
    first_name: "Ada", middle_name: null, last_name: "Lovelace", identification_number: "123-45-6789",
    identification_number_type: "ssn", occupation: "engineer", person_id: null, phone_number: "+12025550143",
    physical_address: address, userdata: null, document_ids: [], mailing_address: null, secondary_email_address: null,
  },
  webhook: {
    id: "webhook_1", url: "https://hooks.example/bank", event: "ach.update", status: "enabled", basic_user: null,
    basic_secret: null, error: null, userdata: null, ...stamps,
  },
  cardAccessToken: { access_token: "eyJ.card.token", expires_in: 3600, token_type: "DPoP" },
};
