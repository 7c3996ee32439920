import type { SandboxContext } from "@/sandbox/context";
import { applyWebhookFault } from "@/sandbox/control/webhook-faults";
import { resourcePaths } from "@/lib/contract/names";
import { groupedWriter } from "@/lib/db/grouped-writes";
import {
  claimDueDeliveries,
  recordDeliveredAttempts,
  recordFailedAttempt,
  releaseClaims,
  type AttemptOutcome,
  type ClaimedDelivery,
  type DeliveredAttempt,
} from "./delivery-store";
import { keptConnections, postPinned } from "./post";
import { checkTarget } from "./target";

/** What the worker uses of the sandbox's context. */
export type DeliveryWorkerContext = Pick<SandboxContext, "db" | "baseUrl" | "settings" | "log" | "now">;

/** Deliveries in flight at once; a slow receiver holds one slot, not the whole worker. */
const maxInFlight = 16;
/** A claim lasts twice the request's timeout (and a second), so only a dead worker's claims expire. */
const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 1000;
const bodyExcerptLength = 200;

/**
 * Delivers the outbox: claims due deliveries of enabled webhooks, POSTs each notification and records the attempt.
 * All state is in the database, so a restarted sandbox carries on where it stopped (at least once: a delivery
 * interrupted by a crash is sent again when its claim expires).
 */
export function startDeliveryWorker(ctx: DeliveryWorkerContext): { stop(): Promise<void>; nudge(): void } {
  const settings = ctx.settings.webhooks;
  const log = ctx.log.child({ component: "webhook-delivery" });
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const recording = new Set<Promise<void>>();
  const connections = keptConnections();
  const recordDelivered = groupedWriter((batch: DeliveredAttempt[]) => recordDeliveredAttempts(ctx.db, batch));
  let wake: (() => void) | undefined;
  /** Set by a nudge that came while the worker was claiming: the claim may have missed it, so look again at once. */
  let nudged = false;

  /**
   * A delivered attempt frees its slot as soon as the receiver has answered: it is recorded with the others delivered
   * meanwhile, in one statement, while the slot sends the next. A slot waiting for its own record capped deliveries
   * below 200/s on this machine (bench:events). Until recorded, the claim's lease keeps the delivery from being sent
   * again; a record that fails leaves it to be sent again when the lease ends (at least once).
   */
  const deliverAndRecord = async (delivery: ClaimedDelivery) => {
    // A fault set with POST /sandbox/faults may postpone this delivery or drop its attempt (sandbox/control/webhook-faults.ts).
    const fault = await applyWebhookFault(ctx, delivery);
    if (fault && "postponed" in fault) return;
    const outcome = await send(ctx, delivery, stopping.signal, connections, fault?.dropped);
    if (!outcome) {
      await releaseClaims(ctx.db, [delivery.id]);
      return;
    }
    log.debug({ delivery: delivery.id, webhook: delivery.webhookId, status: outcome.statusCode, error: outcome.error }, "webhook attempt");
    if (!outcome.succeeded) return recordFailedAttempt(ctx.db, settings, delivery, outcome);
    const recorded = recordDelivered({ delivery, outcome })
      .catch((error: unknown) => log.warn({ err: error, delivery: delivery.id }, "recording a delivered webhook attempt failed"))
      .finally(() => recording.delete(recorded));
    recording.add(recorded);
  };

  const loop = async () => {
    while (!stopping.signal.aborted) {
      const room = maxInFlight - inFlight.size;
      let claimed: ClaimedDelivery[] = [];
      if (room > 0) {
        try {
          claimed = await claimDueDeliveries(ctx.db, room, leaseMs(settings.requestTimeoutMs), ctx.now());
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
      if (nudged) nudged = false;
      else if (claimed.length === 0 || claimed.length < room) await pause(settings.pollIntervalMs);
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
    /**
     * New deliveries were committed in this process (an API change): claim them now rather than at the next poll,
     * which would add up to `pollIntervalMs` to every notification (bench:sandbox-control).
     */
    nudge() {
      if (wake) wake();
      else nudged = true;
    },
    async stop() {
      stopping.abort();
      wake?.();
      await running;
      await Promise.all(inFlight);
      await Promise.all(recording);
      connections.close();
    },
  };
}

/**
 * POSTs one notification (the worker's deliveries and the ones sent now, ./send-now.ts). Undefined when `stopping`
 * ended it mid-request (the attempt does not count).
 */
export async function send(
  ctx: DeliveryWorkerContext,
  delivery: ClaimedDelivery,
  stopping: AbortSignal,
  connections: ReturnType<typeof keptConnections>,
  /** Why the attempt fails without being sent (a sandbox fault), if it does. */
  dropped?: string,
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
  const noAnswer = { requestBody, responseBody: null };
  if (dropped !== undefined) return { attemptedAt, statusCode: null, latencyMs: 0, succeeded: false, error: dropped, ...noAnswer };
  // Checked at every attempt, not only when the webhook was saved: a name may resolve elsewhere by now. The request
  // then goes to the address that was checked, never to a second resolution of the name.
  const checked = await checkTarget(delivery.url, ctx.settings.webhooks);
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
