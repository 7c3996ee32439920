import { z } from "zod";
import { provisioningSimulation, simulationTypes } from "@/lib/contract";
import type { OperationId } from "@/lib/bank/client";
import type { ApplicationKind } from "@/lib/pii";
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
  /** Answers carrying personal data: always masked; a `pii:reveal` role reveals one object with `POST <path>/reveal` (audited). */
  personalData?: ApplicationKind;
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

const read = (operationId: OperationId, personalData?: ApplicationKind): ExposedOperation => ({
  operationId,
  permission: "bank:read",
  ...(personalData ? { personalData } : {}),
});

export const exposedOperations: ExposedOperation[] = [
  read("list_network_transfer"),
  read("get_network_transfer"),
  {
    operationId: "patch_network_transfer",
    permission: "bank:userdata:write",
    audit: { action: "network_transfer.userdata.update", before: "get_network_transfer" },
  },
  read("list_ach"),
  read("get_ach"),
  read("list_fednow"),
  read("get_fednow"),
  read("list_counterparty"),
  read("get_counterparty"),
  read("list_deposit_sweep"),
  read("get_deposit_sweep"),
  read("list_person_application", "person_application"),
  read("get_person_application", "person_application"),
  read("list_business_application", "business_application"),
  read("get_business_application", "business_application"),
  read("list_card"),
  read("get_card"),
  { operationId: "create_uxt_access_token", permission: "card:token", audit: { action: "card.uxt_access_token.create" } },
  read("list_digital_wallet_token"),
  read("get_digital_wallet_token"),
  // Sandbox only: the contract marks it, and the proxy refuses it in any other environment.
  { operationId: "create_simulation", permission: "simulation:run", audit: { action: "simulation.run" }, body: implementedSimulation },
  read("list_webhook"),
  read("get_webhook"),
  read("list_webhook_deliveries"),
  { operationId: "create_webhook", permission: "webhook:write", audit: { action: "webhook.create" } },
  { operationId: "patch_webhook", permission: "webhook:write", audit: { action: "webhook.update", before: "get_webhook" } },
  { operationId: "delete_webhook", permission: "webhook:write", audit: { action: "webhook.delete", before: "get_webhook" } },
];
