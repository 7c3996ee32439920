import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { thirdTokenRequestor, tokenRequestors, tokenStatusForFulfillment, type ProvisioningSimulation } from "@/lib/contract";
import type { SandboxContext } from "../context";
import { cards, digitalWalletTokens } from "../db/resources-schema";
import { emitEvent, newId } from "../events/emit";
import { badRequest } from "../http/errors";
import { provisioningFulfillmentStatus } from "../lifecycle/magic";

/** Requestor name of each of the three documented token requestor ids. */
const requestorNameById: Record<string, string> = {
  [tokenRequestors.APPLE_PAY]: "APPLE_PAY",
  [tokenRequestors.GOOGLE_PAY]: "GOOGLE_PAY",
  [thirdTokenRequestor.id]: thirdTokenRequestor.name,
};

/** The requestor a simulation names: a name, an id, or both (which must agree); APPLE_PAY when neither. */
function requestorOf(provider: ProvisioningSimulation["token_service_provider"]): { name: string; id: string } {
  const name = provider?.token_requestor_name;
  const id = provider?.token_requestor_id;
  if (name && id && tokenRequestors[name] !== id) {
    throw badRequest(`simulation.token_service_provider.token_requestor_id ${id} does not belong to ${name} (its id is ${tokenRequestors[name]})`);
  }
  if (id) return { name: requestorNameById[id] as string, id };
  const chosen = name ?? "APPLE_PAY";
  return { name: chosen, id: tokenRequestors[chosen] };
}

/**
 * Simulates a card being added to a digital wallet: creates a `dwt_` token whose status follows the fulfillment
 * status (the requested one, else the one the card id's magic suffix forces, else provisioned) and emits
 * digital_wallet_token.create, in one transaction. Returns the token id (the API itself returns no body).
 */
export async function simulateProvisioning(ctx: SandboxContext, simulation: ProvisioningSimulation): Promise<string> {
  const requestor = requestorOf(simulation.token_service_provider);
  const fulfillment = provisioningFulfillmentStatus(simulation.card_id, simulation.fulfillment?.status);
  const id = newId("dwt");
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const [card] = await tx.select({ id: cards.id }).from(cards).where(eq(cards.id, simulation.card_id));
    if (!card) throw badRequest(`simulation.card_id ${simulation.card_id} is not the id of a card`);
    await tx.insert(digitalWalletTokens).values({
      id,
      card_id: card.id,
      status: tokenStatusForFulfillment[fulfillment],
      fulfillment_status: fulfillment,
      message_type: "provisioning",
      token_requestor_name: requestor.name,
      token_requestor_id: requestor.id,
      token_last_four: String(randomInt(0, 10_000)).padStart(4, "0"),
      created_at: now,
      updated_at: now,
    });
    await emitEvent(tx, { resource: "digital_wallet_token", op: "create", id });
    return id;
  });
}
