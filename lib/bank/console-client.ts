import "server-only";
import { getBankConnection, type Environment } from "@/lib/credentials";
import { env } from "@/lib/env/console";
import { log } from "@/lib/log";
import { createBankClient, type BankClient } from "./client";

/** The bank client for `environment` with the console's configured timeout and retries; null when not configured. */
export async function consoleBankClient(environment: Environment): Promise<BankClient | null> {
  const connection = await getBankConnection(environment);
  if (!connection) return null;
  return createBankClient(connection, {
    timeoutMs: env.BANK_TIMEOUT_MS,
    retries: env.BANK_RETRIES,
    retryBaseMs: env.BANK_RETRY_BASE_MS,
    log: log.child({ bankEnvironment: environment }),
  });
}
