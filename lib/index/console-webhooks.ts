import { environments, type Environment } from "@/lib/credentials/environments";

/**
 * Which webhooks at the bank are the console's own subscriptions (docs/bank-index.md), decided here for the proxy and
 * the pages alike. Client-safe: no secrets, no server code. A webhook is the console's own when it points at the
 * console's receiver (`/api/bank-events/<environment>` on the console's address) or carries the Basic user the console
 * signs its receiver's notifications with: such a webhook carries (or would be sent) the receiver's secret, so only the
 * index settings (admin, `index:manage`, audited) may change it.
 */

/** The Basic user the bank sends with every notification to the console's receiver of `environment`. */
export const receiverUsername = (environment: Environment) => `console-${environment}`;

/** The Basic users of every environment's receiver: what tells the console's own subscriptions apart in a list. */
export const receiverUsernames: readonly string[] = environments.map(receiverUsername);

/** The path of the receiver of bank events below the console's address, for every environment. */
const receiverPath = /^\/api\/bank-events\/(sandbox|production)\/?$/;

/** A loopback name or address: the same machine however it is spelled (`localhost`, `127.0.0.1`, `[::1]`). */
const isLoopback = (hostname: string) => hostname === "localhost" || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === "[::1]";

function sameAddress(url: URL, console: URL): boolean {
  if (url.protocol !== console.protocol || url.port !== console.port) return false;
  return url.hostname === console.hostname || (isLoopback(url.hostname) && isLoopback(console.hostname));
}

function pointsAtReceiver(url: unknown, consoleAddress: string | null): boolean {
  if (typeof url !== "string" || !consoleAddress) return false;
  try {
    const target = new URL(url);
    const console = new URL(consoleAddress);
    // The console may be served below a path (CONSOLE_PUBLIC_URL=https://bank.example/console).
    const base = console.pathname.replace(/\/+$/, "");
    return sameAddress(target, console) && target.pathname.startsWith(base) && receiverPath.test(target.pathname.slice(base.length));
  } catch {
    return false;
  }
}

/**
 * Whether a webhook (as the bank answers it, or a body creating or changing one) is the console's own, given the
 * console's address as the bank reaches it (its base URL; null when unknown: then by its Basic user alone).
 */
export function isConsoleWebhook(webhook: { url?: unknown; basic_user?: unknown } | null | undefined, consoleAddress: string | null): boolean {
  if (!webhook) return false;
  return (typeof webhook.basic_user === "string" && receiverUsernames.includes(webhook.basic_user)) || pointsAtReceiver(webhook.url, consoleAddress);
}

/** The bank fields of a row `shownInList` decides by: a list's first-load payload keeps them (lib/resources/list-payload.ts). */
export const shownInListReads = ["basic_user"] as const;

/** What a webhook's page calls one of the console's own subscriptions. */
export const consoleSubscriptionLabel = "Console's index subscription";

/**
 * Whether a row of a bank list is one the list shows: every row but, on the webhooks list, the console's own
 * subscriptions, which the page shows in a section of their own. Decided by the Basic user alone, as the list does
 * without the console's address; the list's count (lib/search/index-list.ts) and its export leave out the same.
 */
export function shownInList(resource: string, row: { url?: unknown; basic_user?: unknown }): boolean {
  return resource !== "webhook" || !isConsoleWebhook(row, null);
}

/** What the proxy answers to a change of one: why, and where such a change is made instead. */
export const consoleWebhookRefusal =
  "This webhook is the console's own subscription (it points at the console's receiver of bank events or carries its " +
  "Basic user): only Settings → Index of the bank changes it.";

/** What the proxy answers to a webhook created or changed to point at the receiver or to carry the console's Basic user. */
export const consoleWebhookTargetRefusal =
  "url, basic_user: the console's receiver of bank events and its Basic user are reserved for the console's own " +
  "subscriptions, which only Settings → Index of the bank sets up.";
