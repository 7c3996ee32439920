/**
 * The API's names that the browser needs too, free of zod so they cost a page nothing: each resource's path and each
 * id's prefix. The contract's schemas (primitives.ts, operations.ts) and the console's page definitions
 * (lib/resources) both take them from here.
 */

/**
 * Every resource that emits events, and the path of its objects in the API. An event is `<resource>.<op>` and its
 * notification's `url` is `<base>/<path>/<id>`.
 */
export const resourcePaths = {
  network_transfer: "network_transfer",
  ach: "ach",
  fednow: "fednow",
  counterparty: "counterparty",
  deposit_sweep: "deposit_sweep",
  person_application: "apply/person_application",
  business_application: "apply/business_application",
  card: "card",
  digital_wallet_token: "digital_wallet_token",
  webhook: "webhook",
} as const;

export type ResourceName = keyof typeof resourcePaths;

/**
 * Every id prefix the API uses. `fednow_` (instant payment), `dwt_` (digital wallet token), `bus_` (business),
 * `doc_` (document), `key_` (API key), `whd_` (webhook delivery attempt) are this implementation's choices; the
 * rest are the spec's.
 */
export const idPrefixes = {
  network_transfer: "nt_",
  account: "acct_",
  ach: "ach_",
  counterparty: "cp_",
  person_application: "apsn_",
  business_application: "abus_",
  person: "psn_",
  business: "bus_",
  deposit_sweep: "dsa_",
  webhook: "webhook_",
  webhook_delivery: "whd_",
  card: "card_",
  digital_wallet_token: "dwt_",
  fednow: "fednow_",
  bank: "bank_",
  org: "org_",
  document: "doc_",
  api_key: "key_",
} as const;
export type IdKind = keyof typeof idPrefixes;

/** Whether `id` is well formed for its kind: the prefix, then 1 to 64 letters, digits, `_` or `-`. */
export const isWellFormedId = (kind: IdKind, id: string) => new RegExp(`^${idPrefixes[kind]}[A-Za-z0-9_-]{1,64}$`).test(id);

/** The kind an id names by its prefix; undefined when it carries none of the API's prefixes. */
export const idKindOf = (id: string): IdKind | undefined => (Object.keys(idPrefixes) as IdKind[]).find((kind) => id.startsWith(idPrefixes[kind]));
