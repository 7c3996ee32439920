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
export type EventOp = "create" | "update";
export const eventNames = Object.keys(resourcePaths).flatMap((resource) => [`${resource}.create`, `${resource}.update`]);
