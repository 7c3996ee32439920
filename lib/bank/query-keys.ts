/**
 * The ONE place TanStack Query keys for bank data are built. The environment is part of every key: switching it
 * changes every answer. The data layer (queries.ts) reads by them; changes (components/bank/bank-mutations.ts) and the
 * live feed invalidate by them (`bankKeys.lists(env, "webhook")` after a webhook was created, `bankKeys.detail(env,
 * "ach", id)` after one object changed), so nothing else builds keys by hand.
 */
import type { Environment } from "@/lib/credentials/environments";
import type { ResourceName } from "@/lib/resources/types";

export const bankKeys = {
  all: (environment: Environment) => ["bank", environment] as const,
  lists: (environment: Environment, resource: ResourceName) => ["bank", environment, resource, "list"] as const,
  list: (environment: Environment, resource: ResourceName, query: Record<string, string>) => ["bank", environment, resource, "list", query] as const,
  /** How many objects match a list's filters, from the index: under the list's keys, so whatever refreshes the list refreshes it. */
  count: (environment: Environment, resource: ResourceName, filters: Record<string, string>) =>
    ["bank", environment, resource, "list", "count", filters] as const,
  detail: (environment: Environment, resource: ResourceName, id: string) => ["bank", environment, resource, "detail", id] as const,
  /** A webhook's delivery attempts: under its detail key, so a change to the webhook makes them stale too. */
  deliveries: (environment: Environment, webhookId: string, query: Record<string, string>) =>
    ["bank", environment, "webhook", "detail", webhookId, "deliveries", query] as const,
  /** A search over the console's index of the bank (docs/search.md): under the environment, so any change there refreshes it. */
  search: (environment: Environment, q: string) => ["bank", environment, "search", q] as const,
  /** The search box's preview while typing (public fields only, never recorded: lib/search/search-preview.ts). */
  searchPreview: (environment: Environment, q: string) => ["bank", environment, "search-preview", q] as const,
  /** The name the index knows for an id, shown beside it (components/bank/name-beside.tsx). */
  name: (environment: Environment, id: string) => ["bank", environment, "name", id] as const,
  /** The transitions valid from an object's current state (sandbox): under its detail key, so any change to it makes them stale. */
  transitions: (environment: Environment, resource: ResourceName, id: string) =>
    ["bank", environment, resource, "detail", id, "transitions"] as const,
  /** The sandbox bank's clock and its active failures: under the environment, so a reset's invalidation of everything refreshes them. */
  sandboxClock: (environment: Environment) => ["bank", environment, "sandbox", "clock"] as const,
  sandboxFaults: (environment: Environment) => ["bank", environment, "sandbox", "faults"] as const,
  /** A counterparty's money movements from the index (lib/customer): under the environment, so any change there refreshes them. */
  customerMovements: (environment: Environment, counterpartyId: string, cursor: string) =>
    ["bank", environment, "customer", counterpartyId, cursor] as const,
  /** A bulk action's progress and rows (lib/bulk): under the environment, like everything read from it. */
  bulkJob: (environment: Environment, id: string) => ["bank", environment, "bulk", id] as const,
};
