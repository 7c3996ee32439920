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
import { idPrefixes, resourcePaths } from "@/lib/contract/names";
import type { Field, ResourceDefinition, ResourceName, ResourcePage } from "./types";

export type { DetailSection, Field, ResourceDefinition, ResourceName, ResourcePage, ValueFormat, ValueLink } from "./types";

/** Every bank resource the console lists, by the contract's resource name. */
const pages: Record<ResourceName, ResourcePage> = {
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

export const resources = Object.fromEntries(
  Object.entries(pages).map(([name, page]) => [
    name,
    { ...page, apiPath: `/${resourcePaths[name as ResourceName]}`, idPrefix: idPrefixes[name as ResourceName] },
  ]),
) as Record<ResourceName, ResourceDefinition>;

export const resourceList: ResourceDefinition[] = Object.values(resources);

export function isResourceName(name: string): name is ResourceName {
  return Object.hasOwn(pages, name);
}

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

/** The field a resource's definition shows at `path` (its list column or detail row), for formatting a changed value. */
export function fieldAt(resource: ResourceName | undefined, path: string): Field | undefined {
  if (!resource || !(resource in resources)) return undefined;
  const definition = resources[resource];
  return [...definition.sections.flatMap((section) => section.fields), ...definition.columns].find((field) => field.key === path);
}

/** The resource an audit record is about: by its target's id prefix, else by its action's first word (`webhook.create`). */
export function resourceOfRecord(action: string, targetId: string | null): ResourceName | undefined {
  const byId = targetId ? resourceForId(targetId)?.name : undefined;
  if (byId) return byId;
  const word = action.split(".")[0]!;
  return word in resources ? (word as ResourceName) : undefined;
}
