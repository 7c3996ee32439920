import http from "node:http";
import https from "node:https";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import type { CheckedAddress } from "./target";

/**
 * How the sandbox POSTs a notification (the delivery worker, ./worker.ts, decides what and when): to the address its
 * url was checked at, over connections kept open between deliveries, reading no more of the reply than it keeps.
 */

/** At most this much of a failed reply is read (the excerpt's 200 characters are in it); the rest is never fetched. */
export const maxReplyBytes = 4096;

/**
 * Connections kept open between deliveries, one pool per checked address, so a connection is only ever reused to the
 * address it was opened to. A POST on a kept connection costs the sandbox ~102 µs of CPU and a Node receiver ~46,
 * against ~198 and ~101 with a connection each (`npm run bench:delivery`, docs/benchmarks.md).
 */
export function keptConnections() {
  const pools = new Map<string, http.Agent>();
  return {
    to(url: URL, pinned: CheckedAddress): http.Agent {
      const key = `${url.protocol}${pinned.address}`;
      let pool = pools.get(key);
      if (!pool) {
        pool = url.protocol === "https:" ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
        pools.set(key, pool);
      }
      return pool;
    },
    close() {
      for (const pool of pools.values()) pool.destroy();
      pools.clear();
    },
  };
}

/**
 * POSTs `body` to `url` over a connection to `pinned`, the address the url was checked at: the name is not resolved
 * again (TLS still verifies the certificate against the name). A redirect is answered, never followed. The first
 * `maxReplyBytes` of the reply are read as text (kept with the attempt); a longer reply's connection is closed there,
 * a whole one's goes back to `pool` (connections kept open to `pinned`; without one, a connection of its own). A
 * reply whose body is still arriving when `signal` ends is kept as far as it came (the status had arrived: it is an
 * answer). A kept connection the receiver has closed meanwhile shows only when used: the POST is then sent once more
 * on a new one (notifications are at least once: a receiver that read it before closing gets it twice, as with any
 * retry).
 */
export async function postPinned(
  url: URL,
  pinned: CheckedAddress,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  pool: http.Agent | false = false,
): Promise<{ status: number; start: string }> {
  try {
    return await postOnce(url, pinned, headers, body, signal, pool);
  } catch (error) {
    if (!(error instanceof ClosedWhileKept)) throw error;
    return postOnce(url, pinned, headers, body, signal, pool);
  }
}

/** The reply as text to keep: PostgreSQL's text holds no NUL, so a receiver's NUL bytes are kept as U+FFFD. */
function replyText(start: Buffer): string {
  return start.toString("utf8").replaceAll("\u0000", "\uFFFD");
}

/** A kept-open connection the other side had closed: nothing was received on it. */
class ClosedWhileKept extends Error {}

function postOnce(
  url: URL,
  pinned: CheckedAddress,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  pool: http.Agent | false,
): Promise<{ status: number; start: string }> {
  const client = url.protocol === "https:" ? https : http;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: LookupAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, lookup, agent: pool, signal },
      (incoming) => {
        const status = incoming.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          signal.removeEventListener("abort", finish);
          incoming.destroy();
          resolve({ status, start: replyText(Buffer.concat(chunks).subarray(0, maxReplyBytes)) });
        };
        signal.addEventListener("abort", finish);
        incoming.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= maxReplyBytes) finish();
        });
        incoming.on("end", finish);
        incoming.on("error", finish);
      },
    );
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        outgoing.reusedSocket && !signal.aborted && (error.code === "ECONNRESET" || error.code === "EPIPE")
          ? new ClosedWhileKept(error.message, { cause: error })
          : error,
      ),
    );
    outgoing.end(body);
  });
}
