import "server-only";
import { getBankConnection } from "@/lib/credentials";
import type { Environment } from "@/lib/credentials/environments";
import { BankTimeoutError, BankUnreachableError } from "@/lib/bank/errors";
import { bankReachability } from "@/lib/bank/reachability";
import { env } from "@/lib/env/console";
import { activeSandboxBank } from "@/lib/sandbox-control/bank";

/** Home's "now": the sandbox bank's own clock in the sandbox (its objects' times follow it), the console's elsewhere. */
export interface HomeClock {
  now: Date;
  source: "sandbox" | "console";
}

/** How long Home waits for the sandbox's clock before it counts on the console's own (Home must not hang on the bank). */
const clockTimeoutMs = 2_000;

export async function homeClock(environment: Environment): Promise<HomeClock> {
  if (environment !== "sandbox") return { now: new Date(), source: "console" };
  try {
    const bank = await activeSandboxBank({
      activeEnvironment: async () => environment,
      bankTarget: getBankConnection,
      transport: { timeoutMs: clockTimeoutMs, retries: 0, retryBaseMs: env.BANK_RETRY_BASE_MS, retryMaxMs: 0 },
    });
    const { now } = await bank.send<{ now: string }>({ operation: "sandbox_clock", method: "GET", path: "/sandbox/clock" });
    // A call to the bank like any other: whether it answered is what the admin's card and the Live indicator show.
    bankReachability.record(environment, true);
    const at = new Date(now);
    return Number.isNaN(at.getTime()) ? { now: new Date(), source: "console" } : { now: at, source: "sandbox" };
  } catch (error) {
    // No sandbox connection, its control API off, or the bank not answering: the console's clock, and Home says so.
    if (error instanceof BankUnreachableError || error instanceof BankTimeoutError) bankReachability.record(environment, false);
    return { now: new Date(), source: "console" };
  }
}
