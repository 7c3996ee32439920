import { z } from "zod";
import { eventNames } from "./events";
import { address, asciiText, bankdata, date, idOf, money, timestamp, userdata } from "./primitives";

// Response objects. Every field the spec lists is always present (null when it has no value); objects are loose
// so that a client passes through fields it does not know yet.

const stamps = { created_at: timestamp, updated_at: timestamp };

export const networkTransferStatuses = ["pending", "canceled", "sent", "error"] as const;
/** API versions a network transfer can be created with; only v2 transfers have a balancing wire (balanced_at). */
export const networkTransferVersions = ["v1", "v2"] as const;
export const networkTransfer = z
  .looseObject({
    id: idOf("network_transfer"),
    amount: money,
    ...stamps,
    cross_bank: z.boolean(),
    description: z.string().nullable(),
    estimated_settlement_at: timestamp,
    from_account_id: z.string(),
    to_account_id: z.string(),
    status: z.enum(networkTransferStatuses),
    userdata,
    error: z.string().nullable(),
    org_id: z.string().nullable(),
    version: z.enum(networkTransferVersions),
    balanced_at: timestamp.nullable(),
    bankdata,
  })
  .meta({ id: "NetworkTransfer" });

export const personApplication = z
  .looseObject({
    id: idOf("person_application"),
    bankdata,
    citizenship: z.string().length(2),
    ...stamps,
    date_of_birth: date,
    email_address: z.string(),
    first_name: asciiText(36),
    middle_name: z.string().nullable(),
    last_name: asciiText(40),
    identification_number: z.string().max(30).nullable(),
    identification_number_type: z.string().max(30).nullable(),
    occupation: z.string(),
    person_id: z.string().nullable(),
    phone_number: z.string(),
    physical_address: address,
    userdata,
    document_ids: z.array(z.string()),
    mailing_address: address.nullable(),
    secondary_email_address: z.string().nullable(),
  })
  .meta({ id: "PersonApplication" });

export const legalStructures = [
  "ccorp",
  "corp",
  "estate",
  "foreign_entity",
  "llc",
  "llp",
  "lp",
  "nonprofit",
  "partnership",
  "scorp",
  "soleprop",
  "trust",
  "municipality",
] as const;
export const personApplicationRoles = ["signer", "control_person"] as const;
export const businessApplication = z
  .looseObject({
    id: idOf("business_application"),
    bank_id: z.string(),
    bankdata,
    ...stamps,
    dba: z.string().nullable(),
    description: z.string(),
    established_on: date,
    identification_number: z.string().max(30).nullable(),
    identification_number_type: z.string().max(30).nullable(),
    incorporation_state: z.string().min(2).max(3),
    legal_structure: z.enum(legalStructures),
    mailing_address: address,
    physical_address: address,
    naics: z.string(),
    naics_description: z.string(),
    name: z.string(),
    person_applications: z.array(
      z.looseObject({
        id: z.string(),
        ownership_percentage: z.number().min(0).max(100),
        roles: z.array(z.string()),
        title: z.string(),
      }),
    ),
    phone_number: z.string(),
    tin: z.string(),
    urls: z.array(z.string()),
    userdata,
    document_ids: z.array(z.string()),
    /** The spec's public-trading flag: true/false, or null when unknown. */
    publicly_traded: z.boolean().nullable(),
    org_id: z.string().nullable(),
    /** Ids of parent businesses. */
    parent_businesses: z.array(z.string()),
  })
  .meta({ id: "BusinessApplication" });

export const achStatuses = ["pending", "processing", "sent", "returned", "canceled", "error"] as const;
export const achDirections = ["credit", "debit"] as const;
export const achServices = ["standard", "sameday"] as const;
/** The 15-digit ACH trace number (8-digit ODFI routing prefix + 7-digit sequence). */
export const traceNumber = z.string().regex(/^[0-9]{15}$/, "expected a 15-digit trace number");
export const ach = z
  .looseObject({
    id: idOf("ach"),
    account_id: z.string(),
    counterparty_id: z.string(),
    amount: money,
    ...stamps,
    description: z.string().nullable(),
    direction: z.enum(achDirections),
    effective_date: date,
    error: z.string().nullable(),
    originator_name: z.string().nullable(),
    /** Not named by the spec's type: here the timestamp of the settlement window the transfer is scheduled for. */
    scheduled_settlement: timestamp.nullable(),
    sec_code: z.string().regex(/^[a-z]{3}$/),
    service: z.enum(achServices),
    status: z.enum(achStatuses),
    userdata,
    org_id: z.string().nullable(),
    trace_number: traceNumber.nullable(),
  })
  .meta({ id: "Ach" });

export const depositSweep = z
  .looseObject({
    id: idOf("deposit_sweep"),
    account_id: z.string(),
    bank_id: z.string(),
    customer_id: z.string(),
    customer_email: z.string(),
    customer_identifier: z.string(),
    network: z.string(),
    network_account_id: z.string(),
    opted_in: z.boolean(),
    sweep_balance: money,
    threshold_balance: money,
    ...stamps,
  })
  .meta({ id: "DepositSweep" });

export const fednowStatuses = ["pending", "processing", "sent", "done", "error"] as const;
export const fednowExternalStatuses = ["pending", "processing", "done", "rejected", "blocked", "error"] as const;
export const fednowPaymentTypes = ["credit", "debit"] as const;
export const fednow = z
  .looseObject({
    id: idOf("fednow"),
    account_id: z.string(),
    amount: money,
    bank_id: z.string(),
    org_id: z.string(),
    ...stamps,
    currency: z.string(),
    description: z.string().nullable(),
    memo: z.string().nullable(),
    error: z.string().nullable(),
    external_account_number: z.string(),
    external_name: z.string(),
    external_routing_number: z.string(),
    external_status: z.enum(fednowExternalStatuses).nullable(),
    /** Shape chosen here: the network's reason code and a human-readable message. */
    external_reject_reason: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
    fed_settlement_date: date,
    originator_name: z.string().nullable(),
    payment_id: z.string(),
    payment_type: z.enum(fednowPaymentTypes),
    related_fednow_ids: z.array(z.string()),
    security_context: z.looseObject({ device_id: z.string(), ip_address: z.string(), user_agent: z.string() }),
    status: z.enum(fednowStatuses),
  })
  .meta({ id: "Fednow" });

export const counterparty = z
  .looseObject({
    id: idOf("counterparty"),
    name: z.string(),
    ach: z.looseObject({ account_number: z.string(), account_type: z.string(), routing_number: z.string() }).nullable(),
    /** Contents not shown by the spec; chosen here: the beneficiary account, its bank's routing number and name. */
    wire: z.looseObject({ account_number: z.string(), routing_number: z.string(), bank_name: z.string() }).nullable(),
    ...stamps,
    userdata,
  })
  .meta({ id: "Counterparty" });

export const cardStatuses = ["unactivated", "active", "locked", "canceled"] as const;
export const cardForms = ["physical", "virtual"] as const;
export const card = z
  .looseObject({
    id: idOf("card"),
    account_id: z.string(),
    person_id: z.string().nullable(),
    cardholder_name: z.string(),
    form: z.enum(cardForms),
    last_four: z.string().regex(/^[0-9]{4}$/),
    expiration_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
    expiration_year: z.string().regex(/^[0-9]{4}$/),
    status: z.enum(cardStatuses),
    ...stamps,
    userdata,
  })
  .meta({ id: "Card" });

export const fulfillmentStatuses = ["decision_green", "decision_red", "decision_yellow", "rejected", "provisioned"] as const;
export type FulfillmentStatus = (typeof fulfillmentStatuses)[number];
export const digitalWalletTokenStatuses = ["approved", "pending_verification", "declined", "rejected", "active", "suspended", "deactivated"] as const;
export type DigitalWalletTokenStatus = (typeof digitalWalletTokenStatuses)[number];
/** The token's status that each simulated fulfillment status produces. */
export const tokenStatusForFulfillment: Record<FulfillmentStatus, DigitalWalletTokenStatus> = {
  decision_green: "approved",
  decision_yellow: "pending_verification",
  decision_red: "declined",
  rejected: "rejected",
  provisioned: "active",
};
/** The two wallet providers the simulation names, each with its token requestor id, plus the third documented id. */
export const tokenRequestors = { APPLE_PAY: "40010030273", GOOGLE_PAY: "40010075001" } as const;
export const thirdTokenRequestor = { name: "SAMSUNG_PAY", id: "40010043095" } as const;
export const tokenRequestorIds = [tokenRequestors.APPLE_PAY, tokenRequestors.GOOGLE_PAY, thirdTokenRequestor.id] as const;
export const digitalWalletToken = z
  .looseObject({
    id: idOf("digital_wallet_token"),
    card_id: z.string(),
    status: z.enum(digitalWalletTokenStatuses),
    fulfillment_status: z.enum(fulfillmentStatuses),
    message_type: z.literal("provisioning"),
    token_requestor_name: z.string(),
    token_requestor_id: z.string(),
    token_last_four: z.string().regex(/^[0-9]{4}$/),
    ...stamps,
  })
  .meta({ id: "DigitalWalletToken" });

export const cardAccessToken = z
  .looseObject({ access_token: z.string(), expires_in: z.number().int(), token_type: z.literal("DPoP") })
  .meta({ id: "CardAccessToken" });

export const webhookStatuses = ["enabled", "error", "disabled"] as const;
export const eventName = z.enum(eventNames as [string, ...string[]], { error: `event must be one of ${eventNames.join(", ")}` });
export const webhook = z
  .looseObject({
    id: idOf("webhook"),
    url: z.string(),
    event: z.string(),
    status: z.enum(webhookStatuses),
    basic_user: z.string().nullable(),
    /** Write-only: always null in responses. */
    basic_secret: z.null(),
    /** Why the webhook entered `error` (last failure), else null. */
    error: z.string().nullable(),
    userdata,
    ...stamps,
  })
  .meta({ id: "Webhook" });

/** One delivery attempt of a notification to a webhook (read-only, for seeing what happened). */
export const webhookDelivery = z
  .looseObject({
    id: idOf("webhook_delivery"),
    webhook_id: z.string(),
    /**
     * The notification this attempt belongs to (one per event and webhook, `dlv_…`): its retries, and any resend, carry
     * the same id, so a reader groups attempts under it.
     */
    notification_id: z.string(),
    event: z.string(),
    op: z.string(),
    object_id: z.string(),
    attempt: z.number().int().min(1),
    attempted_at: timestamp,
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    succeeded: z.boolean(),
    /** Where the attempt was sent: the webhook's url may have changed since. */
    url: z.string(),
    /** The notification's JSON body as sent (null for attempts recorded before the sandbox kept it). */
    request_body: z.string().nullable(),
    /** The start of the receiver's reply (at most 4 KiB), null when no HTTP answer came. */
    response_body: z.string().nullable(),
  })
  .meta({ id: "WebhookDelivery" });

/** `op` is `test` only in the test notification (`POST /webhook/{id}/test`: event `webhook.test`, about the webhook itself). */
export const notificationPayload = z
  .looseObject({ event: z.string(), op: z.enum(["create", "update", "test"]), id: z.string(), url: z.string() })
  .meta({ id: "Notification" });

export type NetworkTransfer = z.infer<typeof networkTransfer>;
export type PersonApplication = z.infer<typeof personApplication>;
export type BusinessApplication = z.infer<typeof businessApplication>;
export type Ach = z.infer<typeof ach>;
export type DepositSweep = z.infer<typeof depositSweep>;
export type Fednow = z.infer<typeof fednow>;
export type Counterparty = z.infer<typeof counterparty>;
export type Card = z.infer<typeof card>;
export type DigitalWalletToken = z.infer<typeof digitalWalletToken>;
export type CardAccessToken = z.infer<typeof cardAccessToken>;
export type Webhook = z.infer<typeof webhook>;
export type WebhookDelivery = z.infer<typeof webhookDelivery>;
export type NotificationPayload = z.infer<typeof notificationPayload>;
