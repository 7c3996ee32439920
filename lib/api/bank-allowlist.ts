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
   * Reads: the kind of bank object the answer carries (one, or a page of them), masked by its allowlist in lib/pii.ts.
   * A change answers its caller unmasked: they sent the data, and only roles that may change it can call it. A
   * `pii:reveal` role sees one object unmasked with `POST <object path>/reveal` (audited); a GET never unmasks.
   */
  resource?: MaskedResource;
  /** The object is an account application: the review pages treat its personal data with particular care. */
  personalData?: ApplicationKind;
  /**
   * Reads of an object whose userdata this permission may change: `POST <object path>/userdata` answers the current
   * userdata and updated_at unmasked to that role (audited), so the editor starts from the bank's value.
   */
  editableUserdata?: Permission;
  /** A stricter body than the contract's, where the bank would otherwise be asked to judge input the console can. */
  body?: z.ZodType;
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
  { operationId: "create_uxt_access_token", permission: "card:token", audit: { action: "card.uxt_access_token.create" } },
  read("list_digital_wallet_token", "digital_wallet_token"),
  read("get_digital_wallet_token", "digital_wallet_token"),
  // Sandbox only: the contract marks it, and the proxy refuses it in any other environment.
  { operationId: "create_simulation", permission: "simulation:run", audit: { action: "simulation.run" }, body: implementedSimulation },
  read("list_webhook", "webhook"),
  read("get_webhook", "webhook"),
  read("list_webhook_deliveries", "webhook_delivery"),
  { operationId: "create_webhook", permission: "webhook:write", audit: { action: "webhook.create" } },
  { operationId: "patch_webhook", permission: "webhook:write", audit: { action: "webhook.update", before: "get_webhook" } },
  { operationId: "delete_webhook", permission: "webhook:write", audit: { action: "webhook.delete", before: "get_webhook" } },
];
