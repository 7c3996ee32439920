import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import ipaddr from "ipaddr.js";

/** Where the console listens, as the sandbox bank knows it (HOST and PORT of the shared settings). */
export interface ConsoleAddress {
  host: string;
  port: number;
}

/** Who may receive notifications (sandbox/webhooks/settings.ts fills it from the environment). */
export interface TargetPolicy {
  /** The console: only its receiver of bank events may be targeted there; null: SANDBOX_WEBHOOK_REFUSE_CONSOLE=off. */
  refusedConsole: ConsoleAddress | null;
  /** Networks in CIDR form (SANDBOX_WEBHOOK_ALLOWED_NETWORKS) a target may be in besides the public internet. */
  allowedNetworks: readonly string[];
}

/** One address a target was checked at; a delivery connects to exactly this address (no second resolution). */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** Why a url may not receive notifications, or the addresses it was checked at (none: the name does not resolve). */
export type TargetCheck = { refusal: string } | { addresses: CheckedAddress[] };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The system resolver, every address of a name; a name that does not resolve has none. */
export async function resolveHost(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true }).catch(() => [])).map((entry) => entry.address);
}

/** An address in canonical form; an IPv4-mapped IPv6 address (`::ffff:7f00:1`) is the IPv4 address it carries. */
function parseAddress(text: string): Address | null {
  return ipaddr.isValid(text) ? ipaddr.process(text) : null;
}

/** Every address the console answers on: its own, or every local address when it listens on all interfaces. */
async function consoleAddresses(host: string, resolve: typeof resolveHost): Promise<Address[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  const own = (ipaddr.isValid(bare) ? [bare] : await resolve(bare)).map(parseAddress).filter((address) => address !== null);
  if (!own.some((address) => address.range() === "unspecified")) return own;
  return Object.values(networkInterfaces())
    .flatMap((entries) => (entries ?? []).map((entry) => parseAddress(entry.address.replace(/%.*$/, ""))))
    .filter((address) => address !== null);
}

const sameAddress = (a: Address, b: Address) => a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();

function inAllowedNetwork(address: Address, networks: readonly string[]): boolean {
  return networks.some((network) => {
    const [base, prefix] = ipaddr.parseCIDR(network);
    const normalised = base.kind() === "ipv6" && (base as ipaddr.IPv6).isIPv4MappedAddress() ? (base as ipaddr.IPv6).toIPv4Address() : base;
    return normalised.kind() === address.kind() && address.match(normalised, normalised.kind() === base.kind() ? prefix : prefix - 96);
  });
}

/** `/api/bank-events/<environment>` (the URL parser has already resolved any `..` or `%2e%2e`). */
const consoleReceiverPath = /^\/api\/bank-events\/(sandbox|production)$/;

/**
 * Checks a webhook url against the policy, at creation and again at every delivery (a name may resolve elsewhere by
 * then). Addresses are compared parsed, never as strings: the URL parser already turns decimal, octal and hex IPv4
 * forms into dotted quads, and ipaddr.js turns IPv4-mapped IPv6 (`[::ffff:127.0.0.1]`, `[0:0:0:0:0:ffff:7f00:1]`)
 * into the IPv4 address it carries. Refused:
 * - a url carrying a user or password (the API has `basic_user` and `basic_secret`; a url is shown to every role);
 * - the console's own address (loopback, unspecified, or an address it listens on, at its port), except its receiver
 *   of bank events (`/api/bank-events/<environment>`, no query), which answers nothing but receipt;
 * - any address outside public unicast (loopback, private, link-local, carrier-grade NAT, unique-local, multicast,
 *   reserved, the unspecified address, IPv6 forms embedding an IPv4 address) unless SANDBOX_WEBHOOK_ALLOWED_NETWORKS
 *   names a network holding it: a webhook must not make the sandbox bank a way into internal services.
 * A name that does not resolve is accepted with no addresses: a delivery to it fails with the DNS error.
 */
export async function checkTarget(url: string, policy: TargetPolicy, resolve: typeof resolveHost = resolveHost): Promise<TargetCheck> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { refusal: `url ${url} is not an absolute URL` };
  }
  if (target.username || target.password) {
    return { refusal: "url may not carry a user name or password; give them as basic_user and basic_secret" };
  }
  const shown = `${target.protocol}//${target.host}${target.pathname}`;
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const addresses = (ipaddr.isValid(host) ? [host] : await resolve(host)).map((text) => ({ text, parsed: parseAddress(text) }));
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  const console = policy.refusedConsole;
  const own = console && port === console.port ? await consoleAddresses(console.host, resolve) : [];
  const checked: CheckedAddress[] = [];
  for (const { text, parsed } of addresses) {
    if (!parsed) return { refusal: `url ${shown} resolves to ${text}, which is not an IP address` };
    const range = parsed.range();
    const isConsole =
      console !== null &&
      port === console.port &&
      (range === "loopback" || range === "unspecified" || own.some((address) => sameAddress(address, parsed)));
    if (isConsole) {
      // The console's receiver of bank events is the one address there meant for the bank: it answers receipt only.
      if (!(consoleReceiverPath.test(target.pathname) && target.search === "")) {
        return {
          refusal: `url ${shown} points at the console (${parsed.toString()}:${port}); webhooks may not target the console (SANDBOX_WEBHOOK_REFUSE_CONSOLE=off allows it)`,
        };
      }
    } else if (range !== "unicast" && !inAllowedNetwork(parsed, policy.allowedNetworks)) {
      return {
        refusal: `url ${shown} resolves to ${parsed.toString()}, a ${range} address webhooks may not target (SANDBOX_WEBHOOK_ALLOWED_NETWORKS can allow a network)`,
      };
    }
    checked.push({ address: parsed.toString(), family: parsed.kind() === "ipv4" ? 4 : 6 });
  }
  return { addresses: checked };
}
