import { idPrefixes, resourcePaths, type ResourceName } from "@/lib/contract/names";

export type { ResourceName };

/**
 * Each resource's names and addresses: what the browser's shell needs of a resource (links, titles, which resource an
 * id belongs to) apart from its columns and sections (definitions/), which only its own list and detail pages need.
 * Every client module importing the definitions shipped all ten resources' columns and sections to every page
 * (docs/benchmarks.md, pages: first-load JavaScript).
 */
export interface ResourceRoute {
  name: ResourceName;
  /** Plural title of the list page and the navigation entry. */
  title: string;
  /** "ACH transfer": used in headings and messages ("No ACH transfer with id ..."). */
  singular: string;
  /** The console page: `/ach`; detail pages are `${route}/{id}`. */
  route: string;
  /** The bank's list path (`/ach`, from the contract's names); the console proxies it at `/api/bank${apiPath}`. */
  apiPath: string;
  /** The prefix of its ids (`ach_`, from the contract's names). */
  idPrefix: string;
}

const pages: Record<ResourceName, Pick<ResourceRoute, "title" | "singular" | "route">> = {
  network_transfer: { title: "Network transfers", singular: "Network transfer", route: "/network-transfers" },
  ach: { title: "ACH transfers", singular: "ACH transfer", route: "/ach" },
  fednow: { title: "Instant payments", singular: "Instant payment", route: "/instant-payments" },
  person_application: { title: "Person applications", singular: "Person application", route: "/applications/person" },
  business_application: { title: "Business applications", singular: "Business application", route: "/applications/business" },
  counterparty: { title: "Counterparties", singular: "Counterparty", route: "/counterparties" },
  deposit_sweep: { title: "Deposit sweeps", singular: "Deposit sweep", route: "/deposit-sweeps" },
  card: { title: "Cards", singular: "Card", route: "/cards" },
  digital_wallet_token: { title: "Wallet tokens", singular: "Wallet token", route: "/wallet-tokens" },
  webhook: { title: "Webhooks", singular: "Webhook", route: "/webhooks" },
};

/** Every bank resource the console lists, in navigation order, by the contract's resource name. */
export const resourceRoutes = Object.fromEntries(
  Object.entries(pages).map(([name, page]) => [
    name,
    { name, ...page, apiPath: `/${resourcePaths[name as ResourceName]}`, idPrefix: idPrefixes[name as ResourceName] },
  ]),
) as Record<ResourceName, ResourceRoute>;

export const resourceRouteList: ResourceRoute[] = Object.values(resourceRoutes);

export function isResourceName(name: string): name is ResourceName {
  return Object.hasOwn(pages, name);
}

export function detailHref(resource: ResourceName, id: string): string {
  return `${resourceRoutes[resource].route}/${encodeURIComponent(id)}`;
}

export function listHref(resource: ResourceName, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return search ? `${resourceRoutes[resource].route}?${search}` : resourceRoutes[resource].route;
}

// Longest prefix first, so no prefix can shadow a longer one that starts with it.
const byPrefixLength = [...resourceRouteList].sort((a, b) => b.idPrefix.length - a.idPrefix.length);

/** The resource an id belongs to, by its prefix (`ach_...` is an ACH transfer); undefined for an unknown prefix. */
export function resourceForId(id: string): ResourceRoute | undefined {
  return byPrefixLength.find((route) => id.startsWith(route.idPrefix));
}

/** The resource an audit record is about: by its target's id prefix, else by its action's first word (`webhook.create`). */
export function resourceOfRecord(action: string, targetId: string | null): ResourceName | undefined {
  const byId = targetId ? resourceForId(targetId)?.name : undefined;
  if (byId) return byId;
  const word = action.split(".")[0]!;
  return isResourceName(word) ? word : undefined;
}
