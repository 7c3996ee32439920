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
import { resourceRoutes } from "./routes";
import type { Field, ResourceDefinition, ResourceName, ResourcePage } from "./types";

export type { DetailDefinition, DetailSection, Field, ResourceDefinition, ResourceName, ResourcePage, ValueFormat, ValueLink } from "./types";
export { detailDefinition } from "./types";
export { detailHref, isResourceName, listHref, resourceForId, resourceOfRecord, resourceRoutes, type ResourceRoute } from "./routes";

/**
 * Every bank resource's whole definition: its names and routes with its columns and sections. Server modules and a
 * resource's own pages read these; the browser's shared modules import routes.ts alone.
 */
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
  Object.entries(pages).map(([name, page]) => [name, { ...resourceRoutes[name as ResourceName], ...page }]),
) as Record<ResourceName, ResourceDefinition>;

export const resourceList: ResourceDefinition[] = Object.values(resources);

/** The field a resource's definition shows at `path` (its list column or detail row), for formatting a changed value. */
export function fieldAt(resource: ResourceName | undefined, path: string): Field | undefined {
  if (!resource || !(resource in resources)) return undefined;
  const definition = resources[resource];
  return [...definition.sections.flatMap((section) => section.fields), ...definition.columns].find((field) => field.key === path);
}
