import { can, type Permission, type Role } from "@/lib/permissions";
import type { MaskedResource } from "./allowlists";
import { isMaskedField, maskForViewer } from "./mask";

/**
 * Who sees what the allowlists mask: per kind, the permissions whose holders see top-level fields as the bank sent
 * them, and where. `answer`: in every answer of that kind (the proxy leaves those fields unmasked for them);
 * `audited read`: only through an audited POST (`reveal` for `pii:reveal`, lib/api/bank-allowlist.ts), never a GET. THE one table of who sees what: the proxy's masking, what search matches
 * and shows (lib/search/searchable.ts) and the list filters a role may use (lib/search/masked-filters.ts) derive from
 * it, so no role finds, counts or filters by a value it cannot see (lib/pii/grants.test.ts checks the proxy's reads agree).
 */
export type UnmaskedGrant =
  | { permission: Permission; through: "answer"; fields: readonly string[] }
  | { permission: Permission; through: "audited read"; fields: "all" | readonly string[] };

const revealed: UnmaskedGrant = { permission: "pii:reveal", through: "audited read", fields: "all" };

export const unmaskedGrants: Record<MaskedResource, readonly UnmaskedGrant[]> = {
  // A role that may edit a kind's userdata sees its userdata, everywhere it sees the object: the writer reads back what
  // they wrote (answers, the index's lists and the timeline), not `[masked]`.
  network_transfer: [revealed, { permission: "bank:userdata:write", through: "answer", fields: ["userdata"] }],
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
  if (!isMaskedField(resource, field)) return true;
  return grantsOf(resource, role).some((grant) => grant.fields === "all" || grant.fields.includes(field));
}

/** The masked fields of `resource` that `role` sees in every answer: the proxy leaves them as the bank sent them. */
export function shownInAnswer(resource: MaskedResource, role: Role): readonly string[] {
  return grantsOf(resource, role).flatMap((grant) => (grant.through === "answer" ? grant.fields : []));
}

/**
 * One object as `role` sees it by default: masked by its allowlist (maskForViewer), the fields `shownInAnswer` grants
 * that role kept as the bank sent them. In place, as maskForViewer. For reads that do not go through the proxy (the
 * index's lists, the timeline), so they show what the proxy's answers show.
 */
export function maskForRole(resource: MaskedResource, object: Record<string, unknown>, role: Role): Record<string, unknown> {
  const kept = shownInAnswer(resource, role).map((field) => [field, object[field]] as const);
  maskForViewer(resource, object);
  for (const [field, value] of kept) if (value !== undefined) object[field] = value;
  return object;
}
