import type { ListedResource } from "@/lib/contract/operations";
import { can, type Permission, type Role } from "@/lib/permissions";

/**
 * What staff see of a bank object by default: per resource, an ALLOWLIST of the fields shown in full or partly
 * masked; every other field (including any a production bank adds later, `userdata` and `bankdata`) is masked, and
 * so is every unnamed field of a nested object. Unmasked data leaves the console only through the audited reveal.
 * Partial masks keep enough to recognise a record on the phone with a customer: the last four characters of numbers,
 * the first letter and domain of an email, nothing of a date of birth.
 *
 * THE RULE for a person's data shown to a role without `pii:reveal` (lib/pii.test.ts checks every allowlist against
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

type Masker = (value: string) => string;

/**
 * How one field is shown: `show` in full, a Masker for strings, an Allowlist for a nested object, or `{ each }` for
 * an array of objects.
 */
type FieldRule = "show" | Masker | Allowlist | { each: Allowlist };
type Allowlist = { readonly [field: string]: FieldRule };

/** What a masked value becomes; null stays null (it tells only that there is nothing). */
export const maskedValue = "[masked]";

const keepLastFour: Masker = (value) => (value.length <= 4 ? "*".repeat(value.length) : `${"*".repeat(value.length - 4)}${value.slice(-4)}`);
const hideEmail: Masker = (value) => {
  const at = value.lastIndexOf("@");
  return at <= 0 ? "*".repeat(value.length) : `${value[0]}***${value.slice(at)}`;
};
const hideDate: Masker = () => "****-**-**";
/** A url without a user or password in it (the sandbox refuses them now; one saved before is still shown without). */
const withoutCredentials: Masker = (value) => {
  try {
    const url = new URL(value);
    if (!url.username && !url.password) return value;
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    return maskedValue;
  }
};
/**
 * A failed delivery as roles that may not manage webhooks see it: the status, or that the bank refused the target,
 * or that no answer came; never the receiver's reply nor a network error naming an internal address (the full text is
 * shown to `webhook:write`, lib/api/bank-allowlist.ts).
 */
const deliveryOutcome: Masker = (value) => {
  const status = /^HTTP \d{3}/.exec(value);
  if (status) return `${status[0]} (reply shown to roles that manage webhooks)`;
  if (value.startsWith("refused:")) return "refused: the target is not allowed";
  if (/^no response within \d+ ms$/.test(value)) return value;
  return "no answer (details shown to roles that manage webhooks)";
};

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

/**
 * Who sees what the allowlists mask: per kind, the permissions whose holders see top-level fields as the bank sent
 * them, and where. `answer`: in every answer of that kind (the proxy leaves those fields unmasked for them);
 * `audited read`: only through an audited POST (`reveal` for `pii:reveal`, the userdata editor's `userdata` read;
 * lib/api/bank-allowlist.ts), never a GET. THE one table of who sees what: the proxy's masking, what search matches
 * and shows (lib/search/search.ts) and the list filters a role may use (lib/search/masked-filters.ts) derive from
 * it, so no role finds, counts or filters by a value it cannot see (lib/pii.test.ts checks the proxy's reads agree).
 */
export type UnmaskedGrant =
  | { permission: Permission; through: "answer"; fields: readonly string[] }
  | { permission: Permission; through: "audited read"; fields: "all" | readonly string[] };

const revealed: UnmaskedGrant = { permission: "pii:reveal", through: "audited read", fields: "all" };

export const unmaskedGrants: Record<MaskedResource, readonly UnmaskedGrant[]> = {
  network_transfer: [revealed, { permission: "bank:userdata:write", through: "audited read", fields: ["userdata"] }],
  ach: [revealed],
  fednow: [revealed],
  counterparty: [revealed],
  deposit_sweep: [revealed],
  person_application: [revealed],
  business_application: [revealed],
  card: [revealed],
  digital_wallet_token: [revealed],
  webhook: [revealed],
  // A failed delivery's error and every reply carry what the receiver answered: for the roles that manage webhooks.
  webhook_delivery: [{ permission: "webhook:write", through: "answer", fields: ["error", "response_body"] }],
};

const grantsOf = (resource: MaskedResource, role: Role) => unmaskedGrants[resource].filter((grant) => can(role, grant.permission));

/** Whether `role` sees every field of `resource` as the bank sent it (by an audited read). */
export function seesAllUnmasked(resource: MaskedResource, role: Role): boolean {
  return grantsOf(resource, role).some((grant) => grant.fields === "all");
}

/** Whether `role` sees the top-level `field` of `resource` as the bank sent it: shown to everyone, or granted above. */
export function seesUnmasked(resource: MaskedResource, role: Role, field: string): boolean {
  if (rulesByResource.get(resource)!.get(field) === "show") return true;
  return grantsOf(resource, role).some((grant) => grant.fields === "all" || grant.fields.includes(field));
}

/** Whether `field` of `resource` is masked, wholly or partly, for a role granted nothing (a viewer). */
export const isMaskedField = (resource: MaskedResource, field: string) => rulesByResource.get(resource)!.get(field) !== "show";

/** The masked fields of `resource` that `role` sees in every answer: the proxy leaves them as the bank sent them. */
export function shownInAnswer(resource: MaskedResource, role: Role): readonly string[] {
  return grantsOf(resource, role).flatMap((grant) => (grant.through === "answer" ? grant.fields : []));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** An allowlist as looked up on the hot path: a Map has no inherited keys, so `constructor` or `__proto__` find no rule. */
type Rule = "show" | Masker | Rules | { each: Rules };
type Rules = Map<string, Rule>;

function toRules(allowlist: Allowlist): Rules {
  const rule = (fieldRule: FieldRule): Rule => {
    if (fieldRule === "show" || typeof fieldRule === "function") return fieldRule;
    if ("each" in fieldRule && typeof fieldRule.each === "object") return { each: toRules(fieldRule.each as Allowlist) };
    return toRules(fieldRule as Allowlist);
  };
  return new Map(Object.entries(allowlist).map(([field, fieldRule]) => [field, rule(fieldRule)]));
}

const rulesByResource = new Map(Object.entries(allowlists).map(([resource, allowlist]) => [resource as MaskedResource, toRules(allowlist)]));

/** A sole proprietorship is a person doing business under their own name: its addresses are their home. */
export const soleProprietorAllowlist: Allowlist = {
  ...allowlists.business_application,
  mailing_address: personAddress,
  physical_address: personAddress,
};
const soleProprietorRules = toRules(soleProprietorAllowlist);

function rulesFor(resource: MaskedResource, object: Record<string, unknown>): Rules {
  if (resource === "business_application" && object.legal_structure === "soleprop") return soleProprietorRules;
  return rulesByResource.get(resource)!;
}

function maskValue(rule: Rule | undefined, value: unknown): unknown {
  if (value === null || value === undefined || rule === "show") return value;
  if (rule === undefined) return maskedValue;
  if (typeof rule === "function") return typeof value === "string" ? rule(value) : maskedValue;
  if (rule instanceof Map) return isPlainObject(value) ? maskObject(rule, value) : maskedValue;
  return Array.isArray(value) ? value.map((item) => maskValue(rule.each, item)) : maskedValue;
}

// In place and a plain loop: this runs for every object of every page the console shows, and a copy cost more than
// twice the time (50 person applications: 75 µs in place, 180 µs copied; docs/benchmarks.md).
function maskObject(rules: Rules, object: Record<string, unknown>): Record<string, unknown> {
  for (const field of Object.keys(object)) {
    const rule = rules.get(field);
    if (rule === "show") continue;
    const value = object[field];
    const shown = maskValue(rule, value);
    if (shown === value) continue;
    // A `__proto__` field from the bank's JSON is redefined, never assigned, so it stays a field and never a prototype.
    if (field === "__proto__") Object.defineProperty(object, field, { value: shown, enumerable: true, writable: true, configurable: true });
    else object[field] = shown;
  }
  return object;
}

/**
 * One bank object of `resource` as every GET answer and export shows it: allowlisted fields in full or partly masked,
 * everything else `[masked]`. Masks IN PLACE and returns the same object: callers pass the answer they just parsed
 * from the bank, which nothing else holds (a copy per object was the largest cost of showing a masked page).
 */
export function maskForViewer(resource: MaskedResource, object: Record<string, unknown>): Record<string, unknown> {
  return maskObject(rulesFor(resource, object), object);
}

/**
 * The bank-attached (`bankdata`) fields of an application that are a risk assessment rather than personal data, shown
 * in the review queue as fields (docs/reviews.md): the KYC vendor, its result and score. Anything else in `bankdata`
 * stays masked; only strings, numbers and booleans are shown.
 */
export const riskSummaryFields = ["kyc_vendor", "kyc_result", "kyc_status", "risk_score", "risk_level"] as const;

/** The risk summary of an application's unmasked state (call before masking it): allowlisted bankdata fields only. */
export function riskSummary(state: Record<string, unknown> | null): Array<{ field: string; value: string | number | boolean }> {
  const bankdata = state?.bankdata;
  if (!isPlainObject(bankdata)) return [];
  return riskSummaryFields.flatMap((field) => {
    const value = Object.hasOwn(bankdata, field) ? bankdata[field] : undefined;
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? [{ field, value }] : [];
  });
}

/**
 * The fields masking hides in `object` (dotted paths, array items as `[n]`): what a reveal of it shows. For the audit
 * record of a reveal; the object is not changed.
 */
export function maskedFields(resource: MaskedResource, object: Record<string, unknown>): string[] {
  const masked = maskForViewer(resource, structuredClone(object));
  const found: string[] = [];
  const walk = (shown: unknown, original: unknown, path: string) => {
    if (shown === original) return;
    if (isPlainObject(shown) && isPlainObject(original)) {
      for (const key of Object.keys(original)) walk(shown[key], original[key], path ? `${path}.${key}` : key);
    } else if (Array.isArray(shown) && Array.isArray(original)) {
      original.forEach((item, index) => walk(shown[index], item, `${path}[${index}]`));
    } else found.push(path);
  };
  walk(masked, object, "");
  return found;
}
