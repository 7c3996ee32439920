import type { BankClient } from "@/lib/bank/client";
import { BankRejectedError } from "@/lib/bank/errors";
import type { ListedResource } from "@/lib/contract/operations";
import type { ObservedState } from "./store";

/** The bank's current state of one object, with the console's own credentials; `state: null` when it answers 404. */
export async function fetchObject(client: BankClient, resource: ListedResource, id: string): Promise<ObservedState> {
  try {
    return { resource, id, state: await client.resources.get(resource, id) };
  } catch (error) {
    if (error instanceof BankRejectedError && error.status === 404) return { resource, id, state: null };
    throw error;
  }
}
