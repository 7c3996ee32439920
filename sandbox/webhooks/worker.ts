import type { SandboxContext } from "@/sandbox/context";
import { resourcePaths } from "@/lib/contract/names";
import { claimDueDeliveries, recordAttempt, releaseClaims, type AttemptOutcome, type ClaimedDelivery } from "./delivery-store";
import http from "node:http";
import https from "node:https";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { checkTarget, type CheckedAddress } from "./target";

/** What the worker uses of the sandbox's context. */
export type DeliveryWorkerContext = Pick<SandboxContext, "db" | "baseUrl" | "settings" | "log" | "now">;

/** Deliveries in flight at once; a slow receiver holds one slot, not the whole worker. */
const maxInFlight = 16;
/** A claim lasts twice the request's timeout (and a second), so only a dead worker's claims expire. */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 1000;
const bodyExcerptLength = 200;
/** At most this much of a failed reply is read (the excerpt's 200 characters are in it); the rest is never fetched. */
export const maxReplyBytes = 4096;

/**
 * Delivers the outbox: claims due deliveries of enabled webhooks, POSTs each notification and records the attempt.
 * All state is in the database, so a restarted sandbox carries on where it stopped (at least once: a delivery
 * interrupted by a crash is sent again when its claim expires).
 */
export function startDeliveryWorker(ctx: DeliveryWorkerContext): { stop(): Promise<void> } {
  const settings = ctx.settings.webhooks;
  const log = ctx.log.child({ component: "webhook-delivery" });
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const connections = keptConnections();
  let wake: (() => void) | undefined;

  const deliverAndRecord = async (delivery: ClaimedDelivery) => {
    const outcome = await send(ctx, delivery, stopping.signal, connections);
    if (!outcome) {
      await releaseClaims(ctx.db, [delivery.id]);
      return;
    }
    await recordAttempt(ctx.db, settings, delivery, outcome);
    log.debug({ delivery: delivery.id, webhook: delivery.webhookId, status: outcome.statusCode, error: outcome.error }, "webhook attempt");
  };

  const loop = async () => {
    while (!stopping.signal.aborted) {
      const room = maxInFlight - inFlight.size;
      let claimed: ClaimedDelivery[] = [];
      if (room > 0) {
        try {
          claimed = await claimDueDeliveries(ctx.db, room, leaseMs(settings.requestTimeoutMs));
        } catch (error) {
          if (!stopping.signal.aborted) log.warn({ err: error }, "claiming webhook deliveries failed; retrying");
        }
      }
      for (const delivery of claimed) {
        const running = deliverAndRecord(delivery)
          .catch((error: unknown) => log.warn({ err: error, delivery: delivery.id }, "recording a webhook attempt failed"))
          .finally(() => {
            inFlight.delete(running);
            wake?.();
          });
        inFlight.add(running);
      }
      // A full batch suggests more are due: look again at once; otherwise wait for the poll or a free slot.
      if (claimed.length === 0 || claimed.length < room) await pause(settings.pollIntervalMs);
    }
  };

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
      if (stopping.signal.aborted) done();
    });

  const running = loop();
  return {
    async stop() {
      stopping.abort();
      wake?.();
      await running;
      await Promise.all(inFlight);
      connections.close();
    },
  };
}

/**
 * Connections kept open between deliveries, one pool per checked address, so a connection is only ever reused to the
 * address it was opened to. A POST on a kept connection costs the sandbox ~95 µs of CPU and a Node receiver ~35-40,
 * against ~200 and ~90-130 with a connection each (4,000 POSTs, 16 at a time, on loopback; docs/benchmarks.md).
 */
function keptConnections() {
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

/** POSTs one notification. Undefined when the worker stopped mid-request (the attempt does not count). */
async function send(
  ctx: DeliveryWorkerContext,
  delivery: ClaimedDelivery,
  stopping: AbortSignal,
  connections: ReturnType<typeof keptConnections>,
): Promise<AttemptOutcome | undefined> {
  const timeoutMs = ctx.settings.webhooks.requestTimeoutMs;
  const payload = {
    event: delivery.event,
    op: delivery.op,
    id: delivery.objectId,
    url: `${ctx.baseUrl}/${resourcePaths[delivery.resource]}/${delivery.objectId}`,
  };
  const requestBody = JSON.stringify(payload);
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "sandbox-bank-webhooks/1" };
  if (delivery.basicUser !== null || delivery.basicSecret !== null) {
    const credentials = `${delivery.basicUser ?? ""}:${delivery.basicSecret ?? ""}`;
    headers.authorization = `Basic ${Buffer.from(credentials, "utf8").toString("base64")}`;
  }
  const attemptedAt = ctx.now();
  // Checked at every attempt, not only when the webhook was saved: a name may resolve elsewhere by now. The request
  // then goes to the address that was checked, never to a second resolution of the name.
  const checked = await checkTarget(delivery.url, ctx.settings.webhooks);
  const noAnswer = { requestBody, responseBody: null };
  if ("refusal" in checked)
    return { attemptedAt, statusCode: null, latencyMs: 0, succeeded: false, error: `refused: ${checked.refusal}`, ...noAnswer };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const [pinned] = checked.addresses;
  if (!pinned)
    return {
      attemptedAt,
      statusCode: null,
      latencyMs: elapsed(),
      succeeded: false,
      error: `ENOTFOUND: ${new URL(delivery.url).hostname} does not resolve`,
      ...noAnswer,
    };
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const url = new URL(delivery.url);
    const reply = await postPinned(url, pinned, headers, requestBody, AbortSignal.any([timeout, stopping]), connections.to(url, pinned));
    const latencyMs = elapsed();
    const succeeded = reply.status === 200 || reply.status === 202;
    const excerpt = reply.start.slice(0, bodyExcerptLength).trim();
    return {
      attemptedAt,
      statusCode: reply.status,
      latencyMs,
      succeeded,
      error: succeeded ? null : `HTTP ${reply.status}${excerpt ? `: ${excerpt}` : ""} (only 200 or 202 acknowledge)`,
      requestBody,
      responseBody: reply.start,
    };
  } catch (error) {
    if (stopping.aborted) return undefined;
    const reason = timeout.aborted ? `no response within ${timeoutMs} ms` : describeFetchError(error);
    return { attemptedAt, statusCode: null, latencyMs: elapsed(), succeeded: false, error: reason, ...noAnswer };
  }
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
          resolve({ status, start: Buffer.concat(chunks).subarray(0, maxReplyBytes).toString("utf8") });
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

/**
 * The first `maxBytes` of a body as text, then the stream is cancelled (the connection closes): a receiver answering
 * megabytes costs the sandbox no more than that.
 */
export async function readStart(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const kept = value.subarray(0, maxBytes - size);
      chunks.push(kept);
      size += kept.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** fetch reports "fetch failed" and hides the reason (ECONNREFUSED, DNS, TLS) in `cause`. */
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    return code && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}
