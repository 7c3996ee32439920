import type { SandboxEnv } from "@/lib/env/schema";
import type { ConsoleAddress } from "./target";

/** How notifications are delivered (docs/webhooks.md explains each value). */
export interface WebhookSettings {
  /** Nominal delay before the first retry; it doubles on every further retry, up to `retryCapMs`. */
  retryBaseMs: number;
  retryCapMs: number;
  /** This many bad responses within `errorWindowMs` put a webhook in `error`. */
  errorThreshold: number;
  errorWindowMs: number;
  /** A receiver that has not answered within this time counts as a bad response. */
  requestTimeoutMs: number;
  /** How often the worker looks for due deliveries. */
  pollIntervalMs: number;
  /** Targets on this address are refused (sandbox/webhooks/target.ts); null when SANDBOX_WEBHOOK_REFUSE_CONSOLE=off. */
  refusedConsole: ConsoleAddress | null;
  /** Networks (CIDR) besides the public internet a target may resolve to (SANDBOX_WEBHOOK_ALLOWED_NETWORKS). */
  allowedNetworks: readonly string[];
}

/** One try and up to 15 retries, as the spec says. */
export const maxDeliveryAttempts = 16;

export function webhookSettingsFromEnv(env: SandboxEnv): WebhookSettings {
  return {
    retryBaseMs: env.SANDBOX_WEBHOOK_RETRY_BASE_MS,
    retryCapMs: env.SANDBOX_WEBHOOK_RETRY_CAP_MS,
    errorThreshold: env.SANDBOX_WEBHOOK_ERROR_THRESHOLD,
    errorWindowMs: env.SANDBOX_WEBHOOK_ERROR_WINDOW_MS,
    requestTimeoutMs: env.SANDBOX_WEBHOOK_TIMEOUT_MS,
    pollIntervalMs: env.SANDBOX_WEBHOOK_POLL_MS,
    refusedConsole: env.SANDBOX_WEBHOOK_REFUSE_CONSOLE === "on" ? { host: env.HOST, port: env.PORT } : null,
    allowedNetworks: env.SANDBOX_WEBHOOK_ALLOWED_NETWORKS,
  };
}

/** The nominal delay after failed attempt `attempt` (1-based): base x 2^(attempt-1), capped. */
export function nominalRetryDelayMs(settings: Pick<WebhookSettings, "retryBaseMs" | "retryCapMs">, attempt: number): number {
  return Math.min(settings.retryCapMs, settings.retryBaseMs * 2 ** (attempt - 1));
}

/**
 * "Equal jitter": half the nominal delay plus a random share of the other half. Spreads retries of many
 * deliveries apart while each delivery's gaps still never shrink below the cap (the next delay is at least the
 * previous nominal one).
 */
export function retryDelayMs(
  settings: Pick<WebhookSettings, "retryBaseMs" | "retryCapMs">,
  attempt: number,
  random: () => number = Math.random,
): number {
  const nominal = nominalRetryDelayMs(settings, attempt);
  return Math.round(nominal / 2 + random() * (nominal / 2));
}
