import { isIP } from "node:net";

/**
 * The client's address, for the sign-in throttle. The console's own HTTP server (scripts/console-server.ts) rewrites
 * X-Forwarded-For on every request to what it can vouch for: the chain a trusted proxy passed on, then the address of
 * the socket's peer. So the rightmost entry is always the peer, and an entry further left is believed only while
 * every entry to its right is a trusted proxy.
 */
export function forwardedFor(received: string | string[] | undefined, peer: string | undefined, trustedProxies: readonly string[]): string {
  const peerAddress = normalize(peer ?? "unknown");
  if (!trustedProxies.includes(peerAddress) || received === undefined) return peerAddress;
  return `${[received].flat().join(", ")}, ${peerAddress}`;
}

/** The rightmost address of the chain that is not a trusted proxy (the leftmost when all are). */
export function clientAddress(forwarded: string | null, trustedProxies: readonly string[]): string {
  const chain = (forwarded ?? "")
    .split(",")
    .map((entry) => normalize(entry.trim()))
    .filter(Boolean);
  for (let index = chain.length - 1; index >= 0; index--) {
    if (!trustedProxies.includes(chain[index]!) || index === 0) return isIP(chain[index]!) ? chain[index]! : "unknown";
  }
  return "unknown";
}

/** IPv4 clients of a dual-stack socket arrive as `::ffff:1.2.3.4`; one client, one key. */
function normalize(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
