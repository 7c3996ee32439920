import type { ListedResource } from "@/lib/contract/operations";

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" && value !== "[masked]" ? value.trim() : null);

/**
 * The name people know an object by, read from its state as the viewer sees it (masked): a counterparty's or
 * business's name, a person's first and last name, a cardholder, an originator or external party. Null when it has none.
 */
export function nameOf(resource: ListedResource, state: Record<string, unknown>): string | null {
  switch (resource) {
    case "counterparty":
    case "business_application":
      return text(state.name) ?? text(state.dba);
    case "person_application": {
      const parts = [text(state.first_name), text(state.last_name)].filter((part) => part !== null);
      return parts.length > 0 ? parts.join(" ") : null;
    }
    case "card":
      return text(state.cardholder_name);
    case "ach":
      return text(state.originator_name);
    case "fednow":
      return text(state.external_name) ?? text(state.originator_name);
    case "digital_wallet_token":
      return text(state.token_requestor_name);
    case "webhook":
      return text(state.event);
    case "network_transfer":
    case "deposit_sweep":
      return text(state.description);
  }
}
