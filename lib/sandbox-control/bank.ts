import "server-only";
import { bankNotConfigured, ConsoleError } from "@/lib/api/errors";
import { BankRejectedError } from "@/lib/bank/errors";
import { sendBankRequest, type BankRequest, type BankTarget, type TransportOptions } from "@/lib/bank/transport";
import type { Environment } from "@/lib/credentials/environments";

/**
 * The console's way to the sandbox bank's control API (`/sandbox/...`, docs/sandbox-control.md): the active
 * environment's bank, reached with the console's own credentials and transport, and only when that environment is the
 * sandbox. The bank's refusals become the console's error shapes here; anything else a bank call throws is left to
 * the route wrapper (502, 503, 504 as for every bank call, lib/api/errors.ts).
 */
export interface SandboxBankDependencies {
  activeEnvironment(): Promise<Environment>;
  /** Where the environment's bank is and how to authenticate; null when it has no connection configured. */
  bankTarget(environment: Environment): Promise<BankTarget | null>;
  /** The console's timeout and retries (BANK_TIMEOUT_MS, BANK_RETRIES, BANK_RETRY_BASE_MS). */
  transport: TransportOptions;
}

export const sandboxOnly = () => new ConsoleError(404, "not_found", "The sandbox controls exist only in the sandbox environment");
export const controlOff = () => new ConsoleError(404, "not_found", "This sandbox bank has no control API (SANDBOX_CONTROL=off)");

/** The bank's answer to a path it has no route for (sandbox/app.ts): under `/sandbox/`, the control API is not mounted. */
const noSuchPath = (error: BankRejectedError) => error.status === 404 && error.bankMessage.startsWith("No such path");

/** A bank refusal as the console answers it; other errors are returned as they are. */
export function controlError(error: unknown): unknown {
  if (!(error instanceof BankRejectedError)) return error;
  if (noSuchPath(error)) return controlOff();
  if (error.status === 400) return new ConsoleError(400, "invalid_input", error.bankMessage);
  if (error.status === 409) return new ConsoleError(409, "conflict", error.bankMessage);
  return error;
}

export interface SandboxBank {
  environment: "sandbox";
  /** One request to the sandbox bank; its 2xx answer's body, or a thrown error (ConsoleError or BankError). */
  send<T = unknown>(request: BankRequest, options?: Partial<TransportOptions>): Promise<T>;
}

/** The sandbox bank of the active environment, or a 404 when that is not the sandbox (503 when it has no connection). */
export async function activeSandboxBank(dependencies: SandboxBankDependencies): Promise<SandboxBank> {
  const environment = await dependencies.activeEnvironment();
  if (environment !== "sandbox") throw sandboxOnly();
  const target = await dependencies.bankTarget(environment);
  if (!target) throw bankNotConfigured(environment);
  return {
    environment,
    async send<T>(request: BankRequest, options: Partial<TransportOptions> = {}) {
      try {
        return (await sendBankRequest(target, request, { ...dependencies.transport, ...options })).body as T;
      } catch (error) {
        throw controlError(error);
      }
    },
  };
}
