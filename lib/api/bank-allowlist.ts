import { z } from "zod";
import { provisioningSimulation, simulationTypes } from "@/lib/contract";
import type { OperationId } from "@/lib/bank/client";
import type { ApplicationKind, MaskedResource } from "@/lib/pii";
import type { Permission } from "@/lib/permissions";

/**
 * The ONE list of bank operations the console exposes at `/api/bank/<bank path>`. Method, path pattern and the zod
 * schemas of query and body come from the contract's registry (lib/contract/operations.ts) by operation id; this list
 * adds who may call each one and how a change is audited. Any other method or path under /api/bank is a 404.
 */
export interface ExposedOperation {
  operationId: OperationId;
  permission: Permission;
  /** Mutations: the audit action, and the read that captures the state before the change (same path parameters). */
  audit?: { action: string; before?: OperationId };
  /**
   * The kind of bank object the answer carries (one, or a page of them), masked by its allowlist in lib/pii.ts: reads
   * and changes alike, so a change never answers what a GET of the same object masks. A `pii:reveal` role sees one
   * object unmasked with `POST <object path>/reveal` (audited); a GET never unmasks, except the fields lib/pii.ts's
   * unmaskedGrants shows in the answer itself to a role.
   */
  resource?: MaskedResource;
  /** A change whose caller needs only part of the answer: that part, instead of the masked object. */
  answer?: (object: Record<string, unknown>) => unknown;
  /** The object is an account application: the review pages treat its personal data with particular care. */
  personalData?: ApplicationKind;
  /**
   * Reads of an object whose userdata this permission may change: `POST <object path>/userdata` answers the current
   * userdata and updated_at unmasked to that role (audited), so the editor starts from the bank's value.
   */
  editableUserdata?: Permission;
  /** A stricter body than the contract's, where the bank would otherwise be asked to judge input the console can. */
  body?: z.ZodType;
  /** Held for a second person's approval where four-eyes is on for the environment (lib/approvals, docs/approvals.md). */
  fourEyes?: true;
  /**
   * A webhook change: refused (403 `console_webhook`) when the webhook, or what the body would make of it, is one of the
   * console's own subscriptions (lib/index/console-webhooks.ts), which carry its receiver's secret.
   */
  guardsConsoleWebhooks?: true;
}

/**
 * The contract's simulation body leaves `simulation` open so the bank can answer "Simulation not implemented"; the
 * console checks the one implemented type up front, so a bad simulation never reaches the bank.
 */
const implementedSimulation = z.strictObject({
  type: z.enum(simulationTypes, { error: `type must be one of ${simulationTypes.join(", ")}` }),
  simulation: provisioningSimulation,
});

const read = (operationId: OperationId, resource: MaskedResource): ExposedOperation => ({
  operationId,
  permission: "bank:read",
  resource,
  ...(resource === "person_application" || resource === "business_application" ? { personalData: resource } : {}),
});

export const exposedOperations: ExposedOperation[] = [
  read("list_network_transfer", "network_transfer"),
  { ...read("get_network_transfer", "network_transfer"), editableUserdata: "bank:userdata:write" },
  {
    operationId: "patch_network_transfer",
    permission: "bank:userdata:write",
    audit: { action: "network_transfer.userdata.update", before: "get_network_transfer" },
    fourEyes: true,
    // The userdata editor needs the value the bank now holds and its time; the rest (bankdata) stays masked.
    resource: "network_transfer",
    answer: (object) => ({ userdata: object.userdata ?? null, updated_at: object.updated_at }),
  },
  read("list_ach", "ach"),
  read("get_ach", "ach"),
  read("list_fednow", "fednow"),
  read("get_fednow", "fednow"),
  read("list_counterparty", "counterparty"),
  read("get_counterparty", "counterparty"),
  read("list_deposit_sweep", "deposit_sweep"),
  read("get_deposit_sweep", "deposit_sweep"),
  read("list_person_application", "person_application"),
  read("get_person_application", "person_application"),
  read("list_business_application", "business_application"),
  read("get_business_application", "business_application"),
  read("list_card", "card"),
  read("get_card", "card"),
  // The answer is the access token the caller asked for (it carries no personal data, and is never audited).
  { operationId: "create_uxt_access_token", permission: "card:token", audit: { action: "card.uxt_access_token.create" } },
  read("list_digital_wallet_token", "digital_wallet_token"),
  read("get_digital_wallet_token", "digital_wallet_token"),
  // Sandbox only: the contract marks it, and the proxy refuses it in any other environment.
  { operationId: "create_simulation", permission: "simulation:run", audit: { action: "simulation.run" }, body: implementedSimulation },
  read("list_webhook", "webhook"),
  read("get_webhook", "webhook"),
  // Who sees a delivery's error and reply unmasked: lib/pii.ts, unmaskedGrants.
  read("list_webhook_deliveries", "webhook_delivery"),
  {
    operationId: "create_webhook",
    permission: "webhook:write",
    audit: { action: "webhook.create" },
    resource: "webhook",
    fourEyes: true,
    guardsConsoleWebhooks: true,
  },
  {
    operationId: "patch_webhook",
    permission: "webhook:write",
    audit: { action: "webhook.update", before: "get_webhook" },
    resource: "webhook",
    fourEyes: true,
    guardsConsoleWebhooks: true,
  },
  {
    operationId: "delete_webhook",
    permission: "webhook:write",
    audit: { action: "webhook.delete", before: "get_webhook" },
    resource: "webhook",
    fourEyes: true,
    guardsConsoleWebhooks: true,
  },
  // One attempt now, answered with the attempt: no setting changes, so audited but never held for four-eyes. A test is
  // refused on the console's own subscriptions (their receiver answers only bank events); a resend there is a real
  // event sent again, which the receiver takes like any other.
  {
    operationId: "resend_webhook_notification",
    permission: "webhook:write",
    audit: { action: "webhook.notification.resend" },
    resource: "webhook_delivery",
  },
  {
    operationId: "test_webhook",
    permission: "webhook:write",
    audit: { action: "webhook.test", before: "get_webhook" },
    resource: "webhook_delivery",
    guardsConsoleWebhooks: true,
  },
];
