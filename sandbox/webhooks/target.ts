import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";

/** Where the console listens, as the sandbox bank knows it (HOST and PORT of the shared settings). */
export interface ConsoleAddress {
  host: string;
  port: number;
}

const unspecified = new Set(["0.0.0.0", "::"]);
const isLoopback = (address: string) => address.startsWith("127.") || address === "::1" || address.startsWith("::ffff:127.");

async function addressesOf(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare)) return [bare];
  // A name that does not resolve cannot reach the console; the delivery itself then fails with the DNS error.
  return (await lookup(bare, { all: true }).catch(() => [])).map((entry) => entry.address);
}

/** Every address the console answers on: its own, or every local address when it listens on all interfaces. */
async function consoleAddresses(host: string): Promise<Set<string>> {
  const own = await addressesOf(host);
  if (!own.some((address) => unspecified.has(address))) return new Set(own);
  return new Set(Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address)));
}

/** `/api/bank-events/<environment>` (the URL parser has already resolved any `..` or `%2e%2e`). */
const consoleReceiverPath = /^\/api\/bank-events\/(sandbox|production)$/;

/**
 * Why `url` may not receive notifications, or null when it may. A webhook pointed at the console would make the
 * sandbox bank post to the console's API and show the start of each answer in the delivery log, which every console
 * role can read; so a target on the console's port is refused when it resolves to a loopback address, the unspecified
 * address, or an address the console listens on. Other loopback ports stay allowed: local receivers are what the
 * sandbox is for, and so is the console's own receiver of bank events (`/api/bank-events/...`), which answers
 * nothing but receipt. `console` null: the check is switched off (SANDBOX_WEBHOOK_REFUSE_CONSOLE=off).
 */
export async function refusedTarget(url: string, console: ConsoleAddress | null): Promise<string | null> {
  if (!console) return null;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null; // the contract's schema reports a malformed URL
  }
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  if (port !== console.port) return null;
  // The console's receiver of bank events is the one address there meant for the bank: it answers receipt only.
  if (consoleReceiverPath.test(target.pathname) && target.search === "") return null;
  const [addresses, own] = await Promise.all([addressesOf(target.hostname), consoleAddresses(console.host)]);
  const hit = addresses.find((address) => isLoopback(address) || unspecified.has(address) || own.has(address));
  return hit === undefined
    ? null
    : `url ${url} points at the console (${hit}:${port}); webhooks may not target the console (SANDBOX_WEBHOOK_REFUSE_CONSOLE=off allows it)`;
}
