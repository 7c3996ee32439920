import "server-only";
import { cookies } from "next/headers";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { environmentCookie, isEnvironment, type Environment } from "./environments";
import { MissingEncryptionKeyError, parseEncryptionKey } from "./seal";
import { loadSavedConnection, summarize, type BankConnection, type ConnectionSummary } from "./store";

export type { BankAuth, BankConnection, ConnectionSummary } from "./store";
export { MissingEncryptionKeyError } from "./seal";
export { environments, type Environment } from "./environments";

/**
 * Where the console's bank credentials come from, per environment: credentials an admin saved in the settings page
 * (sealed with CREDENTIALS_ENCRYPTION_KEY) win; otherwise the environment variables (sandbox: BANK_SANDBOX_URL or the
 * sandbox bank on SANDBOX_HOST:SANDBOX_PORT, with the sandbox's demo key BANK_API_KEY_ID/BANK_API_KEY_SECRET; production:
 * BANK_PRODUCTION_URL with BANK_PRODUCTION_API_KEY_ID/SECRET or BANK_PRODUCTION_TOKEN). Nothing here ever goes to a
 * browser.
 */

export function encryptionKey(): Buffer {
  if (!env.CREDENTIALS_ENCRYPTION_KEY) throw new MissingEncryptionKeyError();
  return parseEncryptionKey(env.CREDENTIALS_ENCRYPTION_KEY);
}

function fromEnvironmentVariables(environment: Environment): BankConnection | null {
  if (environment === "sandbox") {
    const host = env.SANDBOX_HOST === "0.0.0.0" || env.SANDBOX_HOST === "::" ? "127.0.0.1" : env.SANDBOX_HOST;
    return {
      environment,
      baseUrl: env.BANK_SANDBOX_URL ?? `http://${host}:${env.SANDBOX_PORT}`,
      auth: { type: "basic", keyId: env.BANK_API_KEY_ID, secret: env.BANK_API_KEY_SECRET },
    };
  }
  if (!env.BANK_PRODUCTION_URL) return null;
  const baseUrl = env.BANK_PRODUCTION_URL;
  if (env.BANK_PRODUCTION_TOKEN) return { environment, baseUrl, auth: { type: "bearer", token: env.BANK_PRODUCTION_TOKEN } };
  if (env.BANK_PRODUCTION_API_KEY_ID && env.BANK_PRODUCTION_API_KEY_SECRET) {
    return { environment, baseUrl, auth: { type: "basic", keyId: env.BANK_PRODUCTION_API_KEY_ID, secret: env.BANK_PRODUCTION_API_KEY_SECRET } };
  }
  return null;
}

async function resolve(environment: Environment) {
  // Without an encryption key nothing can have been saved, so the environment variables are the only source.
  const saved = env.CREDENTIALS_ENCRYPTION_KEY ? await loadSavedConnection((await consoleDb()).db, environment, encryptionKey()) : null;
  return saved
    ? { connection: saved, source: "saved" as const, saved }
    : { connection: fromEnvironmentVariables(environment), source: "environment variables" as const };
}

/** The base URL and credentials of `environment`, or null when that environment is not configured. */
export async function getBankConnection(environment: Environment): Promise<BankConnection | null> {
  const { connection } = await resolve(environment);
  return connection && { environment: connection.environment, baseUrl: connection.baseUrl, auth: connection.auth };
}

/** For the settings page: where each environment's credentials come from, without the secrets. */
export async function describeConnection(environment: Environment): Promise<ConnectionSummary> {
  const resolved = await resolve(environment);
  return summarize(resolved.connection, environment, resolved.source, "saved" in resolved ? resolved.saved : undefined);
}

/**
 * The environment the current staff member works in: their own choice, kept in a cookie (switched in the header),
 * sandbox by default. Per user rather than global so one person looking at production never moves everyone else.
 */
export async function getActiveEnvironment(): Promise<Environment> {
  const chosen = (await cookies()).get(environmentCookie)?.value;
  return isEnvironment(chosen) ? chosen : "sandbox";
}
