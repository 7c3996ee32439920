import type { BankClient } from "@/lib/bank/client";
import { eventNames } from "@/lib/contract/events";
import type { Environment } from "@/lib/credentials/environments";
import type { ReceiverCredentials } from "./receiver-credentials";

/** Every event the console subscribes to: all that the bank emits (lib/contract/events.ts). */
export const subscribedEvents = eventNames;

/**
 * `webhook.update` first: every webhook changed after it announces itself on `webhook.update`, and those announcements
 * then carry the current secret from the start (the old one is accepted only for the rotation's overlap; past it, a
 * rotation's own 19 changes would be refused by the receiver and put that subscription in `error`).
 */
const registrationOrder = ["webhook.update", ...subscribedEvents.filter((event) => event !== "webhook.update")];

/** What the console writes into the userdata of its own webhooks, to find them again and know which secret they carry. */
type SubscriptionMark = {
  console_index: Environment;
  receiver_key: string;
};

interface BankWebhook {
  id: string;
  url: string;
  event: string;
  status: "enabled" | "error" | "disabled";
  error: string | null;
  userdata: unknown;
}

export interface SubscriptionState {
  event: string;
  webhookId: string | null;
  status: BankWebhook["status"] | "missing";
  error: string | null;
  /** What `ensureSubscriptions` did; `unchanged` for a read-only look. */
  action: "created" | "updated" | "unchanged" | "removed duplicate" | "missing";
}

function markOf(webhook: BankWebhook, environment: Environment): SubscriptionMark | null {
  const data = webhook.userdata as Partial<SubscriptionMark> | null;
  return data && typeof data === "object" && data.console_index === environment ? (data as SubscriptionMark) : null;
}

/** The console's own webhooks at the bank, by event (oldest first when there are duplicates). */
async function ownWebhooks(client: BankClient, environment: Environment): Promise<Map<string, BankWebhook[]>> {
  const byEvent = new Map<string, BankWebhook[]>();
  for await (const webhook of client.items("list_webhook", { page_size: 1000 }) as AsyncGenerator<BankWebhook>) {
    if (!markOf(webhook, environment)) continue;
    byEvent.set(webhook.event, [webhook, ...(byEvent.get(webhook.event) ?? [])]);
  }
  return byEvent;
}

/** A read-only look at the subscriptions: which exist, which are missing, which are in `error`. */
export async function describeSubscriptions(client: BankClient, environment: Environment): Promise<SubscriptionState[]> {
  const own = await ownWebhooks(client, environment);
  return subscribedEvents.map((event) => {
    const webhook = own.get(event)?.[0];
    return webhook
      ? { event, webhookId: webhook.id, status: webhook.status, error: webhook.error, action: "unchanged" as const }
      : { event, webhookId: null, status: "missing" as const, error: null, action: "missing" as const };
  });
}

/**
 * Makes sure the bank has exactly one webhook per event pointing at the receiver with the current credentials:
 * creates the missing ones, updates one whose url or credentials are stale, removes duplicates. Idempotent,
 * so it runs at every start. A webhook in `error` or `disabled` is left so: an admin resets it in Settings.
 */
export async function ensureSubscriptions(
  client: BankClient,
  options: { environment: Environment; receiverUrl: string; credentials: ReceiverCredentials },
): Promise<SubscriptionState[]> {
  const { environment, receiverUrl, credentials } = options;
  const mark: SubscriptionMark = { console_index: environment, receiver_key: credentials.keyId };
  const signing = { basic_user: credentials.username, basic_secret: credentials.secret };
  const own = await ownWebhooks(client, environment);
  const states: SubscriptionState[] = [];
  for (const event of registrationOrder) {
    const [kept, ...duplicates] = own.get(event) ?? [];
    for (const duplicate of duplicates) {
      await client.delete_webhook(duplicate.id);
      states.push({ event, webhookId: duplicate.id, status: duplicate.status, error: null, action: "removed duplicate" });
    }
    if (!kept) {
      const created = (await client.create_webhook({ url: receiverUrl, event, ...signing, userdata: mark })) as BankWebhook;
      states.push({ event, webhookId: created.id, status: created.status, error: created.error, action: "created" });
    } else if (kept.url !== receiverUrl || markOf(kept, environment)!.receiver_key !== credentials.keyId) {
      const updated = (await client.patch_webhook(kept.id, { url: receiverUrl, ...signing, userdata: mark })) as BankWebhook;
      states.push({ event, webhookId: updated.id, status: updated.status, error: updated.error, action: "updated" });
    } else {
      states.push({ event, webhookId: kept.id, status: kept.status, error: kept.error, action: "unchanged" });
    }
  }
  return states;
}
