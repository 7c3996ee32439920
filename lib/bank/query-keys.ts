/**
 * The ONE place TanStack Query keys for bank data are built. The environment is part of every key: switching it
 * changes every answer. Later work invalidates by these keys (`bankKeys.resource(env, "ach")` after an ACH change,
 * `bankKeys.detail(env, "ach", id)` after one object changed), so nothing else builds keys by hand.
 */
import type { Environment } from "@/lib/credentials/environments";
import type { ResourceName } from "@/lib/resources/types";

export const bankKeys = {
  all: (environment: Environment) => ["bank", environment] as const,
  resource: (environment: Environment, resource: ResourceName) => ["bank", environment, resource] as const,
  lists: (environment: Environment, resource: ResourceName) => ["bank", environment, resource, "list"] as const,
  list: (environment: Environment, resource: ResourceName, query: Record<string, string>) =>
    ["bank", environment, resource, "list", query] as const,
  details: (environment: Environment, resource: ResourceName) => ["bank", environment, resource, "detail"] as const,
  detail: (environment: Environment, resource: ResourceName, id: string) => ["bank", environment, resource, "detail", id] as const,
  /** A webhook's delivery attempts: under its detail key, so a change to the webhook makes them stale too. */
  deliveries: (environment: Environment, webhookId: string, query: Record<string, string>) =>
    ["bank", environment, "webhook", "detail", webhookId, "deliveries", query] as const,
};
