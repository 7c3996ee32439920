import { achTransfers } from "./definitions/ach";
import { businessApplications } from "./definitions/business-application";
import { cards } from "./definitions/card";
import { counterparties } from "./definitions/counterparty";
import { depositSweeps } from "./definitions/deposit-sweep";
import { walletTokens } from "./definitions/digital-wallet-token";
import { instantPayments } from "./definitions/fednow";
import { networkTransfers } from "./definitions/network-transfer";
import { personApplications } from "./definitions/person-application";
import { webhooks } from "./definitions/webhook";
import type { ResourceDefinition, ResourceName } from "./types";

export type { DetailSection, Field, ResourceDefinition, ResourceName, ValueFormat, ValueLink } from "./types";

/** Every bank resource the console lists, by the contract's resource name. */
export const resources: Record<ResourceName, ResourceDefinition> = {
  network_transfer: networkTransfers,
  ach: achTransfers,
  fednow: instantPayments,
  person_application: personApplications,
  business_application: businessApplications,
  counterparty: counterparties,
  deposit_sweep: depositSweeps,
  card: cards,
  digital_wallet_token: walletTokens,
  webhook: webhooks,
};

export const resourceList: ResourceDefinition[] = Object.values(resources);

export function detailHref(resource: ResourceName, id: string): string {
  return `${resources[resource].route}/${encodeURIComponent(id)}`;
}

export function listHref(resource: ResourceName, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return search ? `${resources[resource].route}?${search}` : resources[resource].route;
}

/** The resource an id belongs to, by its prefix (`ach_...` is an ACH transfer); undefined for an unknown prefix. */
export function resourceForId(id: string): ResourceDefinition | undefined {
  // Longest prefix first, so no prefix can shadow a longer one that starts with it.
  return [...resourceList].sort((a, b) => b.idPrefix.length - a.idPrefix.length).find((definition) => id.startsWith(definition.idPrefix));
}
