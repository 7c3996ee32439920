import type { SandboxFault } from "./sandbox-api";

/**
 * A fault in words, as the Failures list shows it: what it matches and what it does ("GET /ach: answers 503 with
 * Retry-After 30 s"), then how often ("half of them, seed run-1"). Pure, so it is tested without a page.
 */
export function faultWords(fault: SandboxFault): { what: string; how: string } {
  const share = fault.share < 1 ? `${Math.round(fault.share * 1000) / 10}% of them (seed ${fault.seed})` : "every one";
  if (fault.webhooks) {
    const does =
      fault.webhooks === "delay"
        ? `delayed by ${fault.delay_ms} ms`
        : fault.webhooks === "drop"
          ? "dropped (a failed attempt, retried as usual)"
          : "sent twice";
    return { what: "Webhook deliveries", how: `${does}; ${share}` };
  }
  const effects = [
    fault.status ? `answers ${fault.status}${fault.retry_after !== null ? ` with Retry-After ${fault.retry_after} s` : ""}` : null,
    fault.latency_ms ? `${fault.latency_ms} ms late` : null,
    fault.drop ? "drops the connection" : null,
  ].filter(Boolean);
  return { what: fault.match === "*" ? "Every API request (*)" : (fault.match ?? ""), how: `${effects.join(", ")}; ${share}` };
}
