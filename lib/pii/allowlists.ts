import type { ListedResource } from "@/lib/contract/operations";
import { deliveryOutcome, hideDate, hideEmail, keepLastFour, withoutCredentials, type Masker } from "./maskers";

/**
 * What staff see of a bank object by default: per resource, an ALLOWLIST of the fields shown in full or partly
 * masked; every other field (including any a production bank adds later, `userdata` and `bankdata`) is masked, and
 * so is every unnamed field of a nested object. Unmasked data leaves the console only through the audited reveal.
 * Partial masks keep enough to recognise a record on the phone with a customer: the last four characters of numbers,
 * the first letter and domain of an email, nothing of a date of birth.
 *
 * THE RULE for a person's data shown to a role without `pii:reveal` (lib/pii/mask.test.ts checks every allowlist against
 * it): names YES, in full, so staff can recognise a caller; everything that identifies, locates or reaches a person NO:
 * identification and account numbers, tax ids, phone numbers (at most their last four), emails (first letter and
 * domain), dates of birth (nothing), and a home address's street and postal code (city, state and country stay). A
 * business's address is public and shown, except a sole proprietor's: that business is a person, and its address is
 * their home, so it is masked like a person's (`legal_structure` "soleprop"). Numbers that identify a bank or a
 * transfer rather than a person (routing numbers, ACH trace numbers) are shown.
 */

/** Every kind of bank object the console shows: the contract's listed resources and a webhook's delivery attempts. */
export type MaskedResource = ListedResource | "webhook_delivery";

/** The resources whose unmasked answer a `pii:reveal` role may ask for (audited). */
export type ApplicationKind = "person_application" | "business_application";

/**
 * How one field is shown: `show` in full, a Masker for strings, an Allowlist for a nested object, or `{ each }` for
 * an array of objects.
 */
export type FieldRule = "show" | Masker | Allowlist | { each: Allowlist };
export type Allowlist = { readonly [field: string]: FieldRule };

const stamps = { created_at: "show", updated_at: "show" } as const;
/** A person's address: the region, not where they live. */
const personAddress: Allowlist = { city: "show", state: "show", country: "show" };
/** A business's address is public (a sole proprietor's is a person's: see soleProprietorRules). */
const businessAddress: Allowlist = { ...personAddress, street_line_1: "show", street_line_2: "show", postal_code: "show" };

/** The fields each resource shows (lib/contract/resources.ts lists them all); anything not named here is masked. */
export const allowlists: Record<MaskedResource, Allowlist> = {
  network_transfer: {
    id: "show",
    amount: "show",
    ...stamps,
    cross_bank: "show",
    description: "show",
    estimated_settlement_at: "show",
    from_account_id: "show",
    to_account_id: "show",
    status: "show",
    error: "show",
    org_id: "show",
    version: "show",
    balanced_at: "show",
  },
  ach: {
    id: "show",
    account_id: "show",
    counterparty_id: "show",
    amount: "show",
    ...stamps,
    description: "show",
    direction: "show",
    effective_date: "show",
    error: "show",
    originator_name: "show",
    scheduled_settlement: "show",
    sec_code: "show",
    service: "show",
    status: "show",
    org_id: "show",
    trace_number: "show",
  },
  fednow: {
    id: "show",
    account_id: "show",
    amount: "show",
    bank_id: "show",
    org_id: "show",
    ...stamps,
    currency: "show",
    description: "show",
    memo: "show",
    error: "show",
    external_account_number: keepLastFour,
    external_name: "show",
    external_routing_number: "show",
    external_status: "show",
    external_reject_reason: { code: "show", message: "show" },
    fed_settlement_date: "show",
    originator_name: "show",
    payment_id: "show",
    payment_type: "show",
    related_fednow_ids: "show",
    security_context: { user_agent: "show" },
    status: "show",
  },
  counterparty: {
    id: "show",
    name: "show",
    ...stamps,
    ach: { account_number: keepLastFour, account_type: "show", routing_number: "show" },
    wire: { account_number: keepLastFour, routing_number: "show", bank_name: "show" },
  },
  deposit_sweep: {
    id: "show",
    account_id: "show",
    bank_id: "show",
    customer_id: "show",
    customer_email: hideEmail,
    customer_identifier: keepLastFour,
    network: "show",
    network_account_id: keepLastFour,
    opted_in: "show",
    sweep_balance: "show",
    threshold_balance: "show",
    ...stamps,
  },
  person_application: {
    id: "show",
    citizenship: "show",
    ...stamps,
    date_of_birth: hideDate,
    email_address: hideEmail,
    first_name: "show",
    middle_name: "show",
    last_name: "show",
    identification_number: keepLastFour,
    identification_number_type: "show",
    occupation: "show",
    person_id: "show",
    phone_number: keepLastFour,
    physical_address: personAddress,
    document_ids: "show",
    mailing_address: personAddress,
    secondary_email_address: hideEmail,
  },
  business_application: {
    id: "show",
    bank_id: "show",
    ...stamps,
    dba: "show",
    description: "show",
    established_on: "show",
    identification_number: keepLastFour,
    identification_number_type: "show",
    incorporation_state: "show",
    legal_structure: "show",
    mailing_address: businessAddress,
    physical_address: businessAddress,
    naics: "show",
    naics_description: "show",
    name: "show",
    person_applications: { each: { id: "show", ownership_percentage: "show", roles: "show", title: "show" } },
    phone_number: keepLastFour,
    tin: keepLastFour,
    urls: "show",
    document_ids: "show",
    publicly_traded: "show",
    org_id: "show",
    parent_businesses: "show",
  },
  card: {
    id: "show",
    account_id: "show",
    person_id: "show",
    cardholder_name: "show",
    form: "show",
    last_four: "show",
    expiration_month: "show",
    expiration_year: "show",
    status: "show",
    ...stamps,
  },
  digital_wallet_token: {
    id: "show",
    card_id: "show",
    status: "show",
    fulfillment_status: "show",
    message_type: "show",
    token_requestor_name: "show",
    token_requestor_id: "show",
    token_last_four: "show",
    ...stamps,
  },
  webhook: {
    id: "show",
    url: withoutCredentials,
    event: "show",
    status: "show",
    basic_user: "show",
    basic_secret: "show",
    error: "show",
    ...stamps,
  },
  webhook_delivery: {
    id: "show",
    webhook_id: "show",
    notification_id: "show",
    event: "show",
    op: "show",
    object_id: "show",
    attempt: "show",
    attempted_at: "show",
    status_code: "show",
    latency_ms: "show",
    error: deliveryOutcome,
    succeeded: "show",
    url: withoutCredentials,
    // The notification as sent: event, op, the object's id and its address at the bank; no personal data.
    request_body: "show",
    // response_body (the receiver's reply) is not named: masked, except for roles that manage webhooks (bank-allowlist.ts).
  },
};

/** A sole proprietorship is a person doing business under their own name: its addresses are their home. */
export const soleProprietorAllowlist: Allowlist = {
  ...allowlists.business_application,
  mailing_address: personAddress,
  physical_address: personAddress,
};
