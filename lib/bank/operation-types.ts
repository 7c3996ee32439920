import type { z } from "zod";
import type {
  CardAccessToken,
  CreateWebhookBody,
  ListedResource,
  NetworkTransfer,
  PatchNetworkTransferBody,
  PatchWebhookBody,
  SimulationBody,
  UxtAccessTokenBody,
  Webhook,
  WebhookDelivery,
  listQueries,
  listedResources,
} from "@/lib/contract";

/**
 * The TypeScript signatures of the bank client's functions, one per operation id of the contract's registry. The
 * registry (lib/contract/operations.ts) holds the schemas the client validates with at run time; these types come
 * from the same schemas, and `client.test.ts` checks that every registry operation has exactly one function here.
 */

/** One page of a list: up to page_size objects and, when more exist, the URL of the next page. */
export interface Page<T> {
  data: T[];
  page_next?: string;
}

type Item<N extends ListedResource> = z.output<(typeof listedResources)[N]["schema"]>;
type Query<N extends keyof typeof listQueries> = z.input<(typeof listQueries)[N]>;

type ListFunctions = { [N in ListedResource as `list_${N}`]: (query?: Query<N>) => Promise<Page<Item<N>>> };
type GetFunctions = { [N in ListedResource as `get_${N}`]: (id: string) => Promise<Item<N>> };

interface WriteAndOtherFunctions {
  patch_network_transfer(id: string, body: PatchNetworkTransferBody): Promise<NetworkTransfer>;
  create_uxt_access_token(cardId: string, body: UxtAccessTokenBody): Promise<CardAccessToken>;
  /** Sandbox only; the bank answers 202 without a body. */
  create_simulation(body: SimulationBody): Promise<undefined>;
  create_webhook(body: CreateWebhookBody): Promise<Webhook>;
  patch_webhook(id: string, body: PatchWebhookBody): Promise<Webhook>;
  delete_webhook(id: string): Promise<undefined>;
  list_webhook_deliveries(id: string, query?: Query<"webhook_delivery">): Promise<Page<WebhookDelivery>>;
  /** One attempt now; the bank answers the attempt made (docs/webhooks.md, "Resend and test"). */
  resend_webhook_notification(id: string, notificationId: string): Promise<WebhookDelivery>;
  test_webhook(id: string): Promise<WebhookDelivery>;
}

export type BankOperations = ListFunctions & GetFunctions & WriteAndOtherFunctions;
