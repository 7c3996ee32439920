import type { BankClient } from "@/lib/bank/client";
import { BankRejectedError } from "@/lib/bank/errors";
import { listedResources, operations, type ListedResource } from "@/lib/contract/operations";
import type { ObservedState } from "./store";

/**
 * The kinds the bank deletes: those with a DELETE operation on their objects (the spec: webhooks only). Any other
 * object exists for good once made, so a 404 for it is never a deletion.
 */
export const deletableResources: ReadonlySet<ListedResource> = new Set(
  (Object.keys(listedResources) as ListedResource[]).filter((resource) =>
    operations.some((operation) => operation.method === "delete" && operation.path === `${listedResources[resource].path}/{id}`),
  ),
);

/**
 * The bank answered 404 for an object of a kind it never deletes: a forged or wrong notification, or a fault at the
 * bank. The worker retries it and reports it; it is never recorded as gone (that would drop the object from search,
 * counts and every list the index serves).
 */
export class NotFoundAndNeverDeletedError extends Error {
  constructor(resource: ListedResource, id: string) {
    super(`the bank answered 404 for ${id}, but a ${resource} is never deleted: not recorded as gone`);
  }
}

/**
 * The bank's current state of one object, with the console's own credentials; `state: null` when it answers 404 for a
 * kind it deletes.
 */
export async function fetchObject(client: BankClient, resource: ListedResource, id: string): Promise<ObservedState> {
  try {
    return { resource, id, state: await client.resources.get(resource, id) };
  } catch (error) {
    if (!(error instanceof BankRejectedError && error.status === 404)) throw error;
    if (!deletableResources.has(resource)) throw new NotFoundAndNeverDeletedError(resource, id);
    return { resource, id, state: null };
  }
}
