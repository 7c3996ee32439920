import "server-only";
import { accessCache } from "@/lib/auth/console-access";
import { getBankConnection, type Environment } from "@/lib/credentials";
import { env } from "@/lib/env/console";
import { log } from "@/lib/log";
import { bankCircuit } from "./circuit";
import { createBankClient, type BankClient } from "./client";
import { bankReachability } from "./reachability";

/**
 * The bank client for `environment` with the console's configured timeout and retries; null when not configured.
 * Built once and kept in the access cache, which saving or clearing credentials invalidates (lib/auth/access-cache.ts).
 * Every attempt's outcome goes to the health answer (lib/bank/reachability.ts), and every call runs through the
 * environment's circuit breaker (lib/bank/circuit.ts), which outlives the client: new credentials keep its state.
 */
export function consoleBankClient(environment: Environment): Promise<BankClient | null> {
  return accessCache.get(`bank-client:${environment}`, async () => {
    const connection = await getBankConnection(environment);
    if (!connection) return null;
    return createBankClient(connection, {
      timeoutMs: env.BANK_TIMEOUT_MS,
      retries: env.BANK_RETRIES,
      retryBaseMs: env.BANK_RETRY_BASE_MS,
      log: log.child({ bankEnvironment: environment }),
      onReached: (reached) => bankReachability.record(environment, reached),
      circuit: bankCircuit(environment, { failures: env.BANK_BREAKER_FAILURES, halfOpenAfterMs: env.BANK_BREAKER_HALF_OPEN_SECONDS * 1000 }),
      // Production is reached over https only; BANK_PRODUCTION_ALLOW_HTTP=on allows http for local testing.
      requireHttps: environment === "production" && env.BANK_PRODUCTION_ALLOW_HTTP !== "on",
    });
  });
}
