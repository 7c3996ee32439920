import { z } from "zod";
import { errorBody } from "./primitives";
import {
  createWebhookBody,
  listQueries,
  listResponse,
  patchNetworkTransferBody,
  patchWebhookBody,
  simulationBody,
  uxtAccessTokenBody,
} from "./requests";
import {
  ach,
  businessApplication,
  card,
  cardAccessToken,
  counterparty,
  depositSweep,
  digitalWalletToken,
  fednow,
  networkTransfer,
  personApplication,
  webhook,
  webhookDelivery,
} from "./resources";

export type HttpMethod = "get" | "post" | "patch" | "delete";

/** One operation of the API: the single source for the sandbox's routes, the console's client and the OpenAPI. */
export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, parameters in braces: `/ach/{id}`. */
  path: string;
  summary: string;
  tag: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Success status and body schema (undefined: no body). */
  response: { status: 200 | 201 | 202 | 204; schema?: z.ZodType };
  /** Sandbox only (not part of the production API). */
  sandboxOnly?: boolean;
}

/** Resources with list and get operations: their path in the API, object schema and list query. */
export const listedResources = {
  network_transfer: { path: "/network_transfer", schema: networkTransfer, tag: "Network transfers" },
  ach: { path: "/ach", schema: ach, tag: "ACH transfers" },
  fednow: { path: "/fednow", schema: fednow, tag: "Instant payments" },
  counterparty: { path: "/counterparty", schema: counterparty, tag: "Counterparties" },
  deposit_sweep: { path: "/deposit_sweep", schema: depositSweep, tag: "Deposit sweeps" },
  person_application: { path: "/apply/person_application", schema: personApplication, tag: "Applications" },
  business_application: { path: "/apply/business_application", schema: businessApplication, tag: "Applications" },
  card: { path: "/card", schema: card, tag: "Cards" },
  digital_wallet_token: { path: "/digital_wallet_token", schema: digitalWalletToken, tag: "Cards" },
  webhook: { path: "/webhook", schema: webhook, tag: "Webhooks" },
} as const satisfies Record<string, { path: string; schema: z.ZodType; tag: string }>;
export type ListedResource = keyof typeof listedResources;

function listAndGet(name: ListedResource): Operation[] {
  const { path, schema, tag } = listedResources[name];
  const label = name.replaceAll("_", " ");
  return [
    {
      operationId: `list_${name}`,
      method: "get",
      path,
      summary: `List ${label} objects, newest first`,
      tag,
      query: listQueries[name],
      response: { status: 200, schema: listResponse(schema) },
    },
    {
      operationId: `get_${name}`,
      method: "get",
      path: `${path}/{id}`,
      summary: `Get one ${label}`,
      tag,
      response: { status: 200, schema },
    },
  ];
}

export const operations: Operation[] = [
  ...listAndGet("network_transfer"),
  {
    operationId: "patch_network_transfer",
    method: "patch",
    path: "/network_transfer/{id}",
    summary: "Update a network transfer's userdata (the only updatable field)",
    tag: "Network transfers",
    body: patchNetworkTransferBody,
    response: { status: 200, schema: networkTransfer },
  },
  ...listAndGet("ach"),
  ...listAndGet("fednow"),
  ...listAndGet("counterparty"),
  ...listAndGet("deposit_sweep"),
  ...listAndGet("person_application"),
  ...listAndGet("business_application"),
  ...listAndGet("card"),
  {
    operationId: "create_uxt_access_token",
    method: "post",
    path: "/card/{id}/uxt_access_token",
    summary: "Get a DPoP-bound access token for the card UX toolkit",
    tag: "Cards",
    body: uxtAccessTokenBody,
    response: { status: 200, schema: cardAccessToken },
  },
  ...listAndGet("digital_wallet_token"),
  {
    operationId: "create_simulation",
    method: "post",
    path: "/simulation",
    summary: "Start a simulation (sandbox only): digital_wallet_token.provisioning",
    tag: "Simulation",
    body: simulationBody,
    response: { status: 202 },
    sandboxOnly: true,
  },
  {
    operationId: "create_webhook",
    method: "post",
    path: "/webhook",
    summary: "Register a webhook",
    tag: "Webhooks",
    body: createWebhookBody,
    response: { status: 201, schema: webhook },
  },
  ...listAndGet("webhook"),
  {
    operationId: "patch_webhook",
    method: "patch",
    path: "/webhook/{id}",
    summary: "Update a webhook; status enabled resets a webhook in error",
    tag: "Webhooks",
    body: patchWebhookBody,
    response: { status: 200, schema: webhook },
  },
  {
    operationId: "delete_webhook",
    method: "delete",
    path: "/webhook/{id}",
    summary: "Delete a webhook",
    tag: "Webhooks",
    response: { status: 204 },
  },
  {
    operationId: "list_webhook_deliveries",
    method: "get",
    path: "/webhook/{id}/deliveries",
    summary: "List a webhook's delivery attempts, newest first (read-only)",
    tag: "Webhooks",
    query: listQueries.webhook_delivery,
    response: { status: 200, schema: listResponse(webhookDelivery) },
  },
  // Not in the spec (its webhook endpoints are "not shown"): what a careful bank offers, production and sandbox alike
  // (docs/webhooks.md, "Resend and test").
  {
    operationId: "resend_webhook_notification",
    method: "post",
    path: "/webhook/{id}/notifications/{notification_id}/resend",
    summary: "Send one notification to its webhook once more, now; answers the attempt made",
    tag: "Webhooks",
    response: { status: 201, schema: webhookDelivery },
  },
  {
    operationId: "test_webhook",
    method: "post",
    path: "/webhook/{id}/test",
    summary: "Send a webhook.test notification to a webhook once, now; answers the attempt made",
    tag: "Webhooks",
    response: { status: 201, schema: webhookDelivery },
  },
];

/** The error body every failed request carries. */
export { errorBody };

/** The path parameter names of an OpenAPI-style path (`/card/{id}/x` → ["id"]). */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1] as string);
}
