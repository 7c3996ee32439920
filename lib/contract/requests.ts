import { z } from "zod";
import { date, opaqueId, userdataInput } from "./primitives";
import {
  achDirections,
  achServices,
  achStatuses,
  cardStatuses,
  digitalWalletTokenStatuses,
  eventName,
  fednowExternalStatuses,
  fednowStatuses,
  fulfillmentStatuses,
  networkTransferStatuses,
  tokenRequestorIds,
  tokenRequestors,
  webhookStatuses,
} from "./resources";

export const pageSizeDefault = 100;
export const pageSizeMax = 1000;

/** The pagination parameters every list accepts. Query values arrive as strings. */
export const paginationQuery = {
  page_cursor: opaqueId.optional().describe("An object id: the page starts after that object"),
  page_size: z.coerce
    .number({ error: `page_size must be an integer from 1 to ${pageSizeMax}` })
    .int(`page_size must be an integer from 1 to ${pageSizeMax}`)
    .min(1, `page_size must be an integer from 1 to ${pageSizeMax}`)
    .max(pageSizeMax, `page_size must be an integer from 1 to ${pageSizeMax}`)
    .default(pageSizeDefault)
    .describe(`Objects per page, 1 to ${pageSizeMax}, default ${pageSizeDefault}`),
  from_date: date.optional().describe("YYYY-MM-DD: objects created on that date (UTC) and onwards"),
  to_date: date.optional().describe("YYYY-MM-DD: objects created before that date (UTC)"),
};

const oneOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(", ")}` });
const booleanText = (name: string) => oneOf(name, ["true", "false"] as const);

/** A list query: pagination plus the resource's Filterable fields, unknown parameters refused. */
const listQuery = <F extends z.ZodRawShape>(filters: F) => z.strictObject({ ...paginationQuery, ...filters });

export const listQueries = {
  network_transfer: listQuery({
    cross_bank: booleanText("cross_bank").optional(),
    from_account_id: opaqueId.optional(),
    to_account_id: opaqueId.optional(),
    status: oneOf("status", networkTransferStatuses).optional(),
    org_id: opaqueId.optional(),
  }),
  ach: listQuery({
    account_id: opaqueId.optional(),
    counterparty_id: opaqueId.optional(),
    direction: oneOf("direction", achDirections).optional(),
    effective_date: date.optional(),
    service: oneOf("service", achServices).optional(),
    status: oneOf("status", achStatuses).optional(),
    org_id: opaqueId.optional(),
    /** The end of the trace number, 1 to 15 digits (all 15 match one transfer; the object field is trace_number). */
    trace_suffix: z
      .string()
      .regex(/^[0-9]{1,15}$/, "trace_suffix must be 1 to 15 digits: the end of the 15-digit trace number")
      .optional(),
  }),
  fednow: listQuery({
    account_id: opaqueId.optional(),
    bank_id: opaqueId.optional(),
    org_id: opaqueId.optional(),
    external_account_number: opaqueId.optional(),
    external_status: oneOf("external_status", fednowExternalStatuses).optional(),
    payment_id: opaqueId.optional(),
    status: oneOf("status", fednowStatuses).optional(),
  }),
  counterparty: listQuery({}),
  deposit_sweep: listQuery({}),
  person_application: listQuery({ person_id: opaqueId.optional() }),
  business_application: listQuery({}),
  card: listQuery({ account_id: opaqueId.optional(), status: oneOf("status", cardStatuses).optional() }),
  digital_wallet_token: listQuery({
    card_id: opaqueId.optional(),
    status: oneOf("status", digitalWalletTokenStatuses).optional(),
  }),
  webhook: listQuery({ event: opaqueId.optional(), status: oneOf("status", webhookStatuses).optional() }),
  /** `succeeded=false`: the failed attempts only (`true`: the delivered ones). */
  webhook_delivery: listQuery({ succeeded: booleanText("succeeded").optional() }),
};
export type ListQueryName = keyof typeof listQueries;
export type ListQuery<N extends ListQueryName> = z.output<(typeof listQueries)[N]>;

export const listResponse = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    page_next: z.string().optional().describe("Full URL of the next page, present only when more results exist"),
  });

// Request bodies: strict, so that a misspelt or read-only field is a 400 naming it.

export const patchNetworkTransferBody = z.strictObject({ userdata: userdataInput }).meta({ id: "PatchNetworkTransfer" });

const webhookUrl = z
  .url({ protocol: /^https?$/, error: "url must be an absolute http or https URL" })
  .max(2048, "url must be at most 2048 characters");
const basicCredential = (name: string) => z.string().min(1, `${name} must not be empty`).max(255, `${name} must be at most 255 characters`);
export const createWebhookBody = z
  .strictObject({
    url: webhookUrl,
    event: eventName,
    basic_user: basicCredential("basic_user").nullable().optional(),
    basic_secret: basicCredential("basic_secret").nullable().optional(),
    userdata: userdataInput.nullable().optional(),
  })
  .meta({ id: "CreateWebhook" });
export const patchWebhookBody = z
  .strictObject({
    url: webhookUrl.optional(),
    event: eventName.optional(),
    basic_user: basicCredential("basic_user").nullable().optional(),
    basic_secret: basicCredential("basic_secret").nullable().optional(),
    userdata: userdataInput.nullable().optional(),
    status: oneOf("status", ["enabled", "disabled"] as const).optional(),
  })
  .meta({ id: "PatchWebhook" });

export const simulationTypes = ["digital_wallet_token.provisioning"] as const;
const requestorNames = Object.keys(tokenRequestors) as [keyof typeof tokenRequestors, ...(keyof typeof tokenRequestors)[]];
/** The body of `simulation` for digital_wallet_token.provisioning. */
export const provisioningSimulation = z.strictObject({
  card_id: z.string({ error: "simulation.card_id is required" }).min(1, "simulation.card_id must not be empty"),
  fulfillment: z.strictObject({ status: oneOf("simulation.fulfillment.status", fulfillmentStatuses).optional() }).optional(),
  token_service_provider: z
    .strictObject({
      token_requestor_name: oneOf("simulation.token_service_provider.token_requestor_name", requestorNames).optional(),
      token_requestor_id: oneOf("simulation.token_service_provider.token_requestor_id", tokenRequestorIds).optional(),
    })
    .optional(),
});
/**
 * `type` is any string here so that an unimplemented type reaches the route and gets the spec's
 * "Simulation not implemented for <type>" error; `simulation` is then checked against the type's own schema.
 */
export const simulationBody = z
  .strictObject({
    type: z.string({ error: "type is required" }).min(1, "type must not be empty"),
    simulation: z.record(z.string(), z.unknown(), { error: "simulation must be an object" }),
  })
  .meta({ id: "Simulation" });

export const uxtAccessTokenBody = z
  .strictObject({ dpop: z.string({ error: "dpop is required" }).min(1, "dpop must not be empty") })
  .meta({ id: "UxtAccessTokenRequest" });

export type PatchNetworkTransferBody = z.infer<typeof patchNetworkTransferBody>;
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;
export type PatchWebhookBody = z.infer<typeof patchWebhookBody>;
export type SimulationBody = z.infer<typeof simulationBody>;
export type ProvisioningSimulation = z.infer<typeof provisioningSimulation>;
export type UxtAccessTokenBody = z.infer<typeof uxtAccessTokenBody>;
