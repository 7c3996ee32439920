/**
 * The browser's data layer for bank data: every read of `/api/bank/...` a page makes goes through these hooks and
 * readers, keyed by `bankKeys` (query-keys.ts), so a component names what it wants (a list, an object, a webhook's
 * deliveries) and never builds a console URL, a query key or a cursor itself. Changes go through
 * `components/bank/use-bank-action.ts`, which invalidates by the same keys.
 */
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { WebhookDelivery } from "@/lib/contract";
import type { Environment } from "@/lib/credentials/environments";
import { resourceRoutes, type ResourceName } from "@/lib/resources/routes";
import { indexCountPath, indexListPath, usesIndexFilters } from "@/lib/search/index-filters";
import { bankApiPath, fetchConsole, type BankPage } from "./browser";
import { bankKeys } from "./query-keys";

export type BankObject = Record<string, unknown>;

const objectPath = (resource: ResourceName, id: string) => `${resourceRoutes[resource].apiPath}/${encodeURIComponent(id)}`;

/** The cursor of the page after this one (the console's `page_next` carries it), or undefined on the last page. */
export function nextPageCursor(page: BankPage<unknown> | undefined): string | undefined {
  if (!page?.page_next) return undefined;
  return new URL(page.page_next, "http://console.invalid").searchParams.get("page_cursor") ?? undefined;
}

/** A list page as the console serves it; `index` says it came from the console's index and how fresh that is. */
export interface ListPage<Row = BankObject> extends BankPage<Row> {
  index?: { asOf: string; lastChange: string | null; complete: boolean };
}

/**
 * One page of a resource's list: the bank's own answer while every filter is the bank's; the console's index answers
 * when a filter the bank cannot express is used (docs/search.md).
 */
export const readBankList = <Row = BankObject>(resource: ResourceName, query: Record<string, string>) =>
  fetchConsole<ListPage<Row>>(usesIndexFilters(query) ? indexListPath(resource, query) : bankApiPath(resourceRoutes[resource].apiPath, query));

export const readBankObject = <Shape = BankObject>(resource: ResourceName, id: string) => fetchConsole<Shape>(bankApiPath(objectPath(resource, id)));

export interface CurrentUserdata {
  userdata: Record<string, unknown> | null;
  updated_at: string;
}

/** A network transfer's current userdata, unmasked, for the role that may edit it (a POST: the read is audited). */
export const readUserdata = (id: string) =>
  fetchConsole<CurrentUserdata>(bankApiPath(`${objectPath("network_transfer", id)}/userdata`), { method: "POST" });

/** One page of a resource's list; the previous page stays shown while the next one loads. */
export function useBankList<Row = BankObject>(
  environment: Environment,
  resource: ResourceName,
  query: Record<string, string>,
  options: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: bankKeys.list(environment, resource, query),
    queryFn: () => readBankList<Row>(resource, query),
    placeholderData: keepPreviousData,
    enabled: options.enabled,
  });
}

export interface IndexCount {
  count: number;
  index: NonNullable<ListPage["index"]>;
}

/** How many objects match a list's filters, from the console's index (the list header's count); paging is not a filter. */
export function useIndexCount(environment: Environment, resource: ResourceName, query: Record<string, string>) {
  const filters = Object.fromEntries(Object.entries(query).filter(([name]) => name !== "page_cursor" && name !== "page_size"));
  return useQuery({
    queryKey: bankKeys.count(environment, resource, filters),
    queryFn: () => fetchConsole<IndexCount>(indexCountPath(resource, filters)),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/**
 * Reads a list page ahead into the cache (the page a "Next" button leads to, when the pointer or focus reaches it), so
 * the click shows it without waiting for the bank. Fresh for as long as any list read is (the provider's staleTime).
 */
export function usePrefetchBankList(environment: Environment, resource: ResourceName) {
  const queryClient = useQueryClient();
  return (query: Record<string, string>) =>
    void queryClient.prefetchQuery({ queryKey: bankKeys.list(environment, resource, query), queryFn: () => readBankList(resource, query) });
}

/** One object as the page shows it (masked); the live feed marks it stale when the bank changes it. */
export function useBankObject(
  environment: Environment,
  resource: ResourceName,
  id: string,
  options: { enabled?: boolean; refetchInterval?: number } = {},
) {
  return useQuery({
    queryKey: bankKeys.detail(environment, resource, id),
    queryFn: () => readBankObject(resource, id),
    enabled: options.enabled,
    refetchInterval: options.refetchInterval,
  });
}

/** A webhook's delivery attempts, one page at a time, under the webhook's own key (a change to it makes them stale). */
export function useWebhookDeliveries(environment: Environment, webhookId: string, query: Record<string, string>, refetchInterval: number) {
  return useQuery({
    queryKey: bankKeys.deliveries(environment, webhookId, query),
    queryFn: () => fetchConsole<BankPage<WebhookDelivery>>(bankApiPath(`${objectPath("webhook", webhookId)}/deliveries`, query)),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}
