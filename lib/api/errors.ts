import { BankCircuitOpenError } from "@/lib/bank/circuit";
import { isBankError, type AnyBankError } from "@/lib/bank/errors";
import type { Environment } from "@/lib/credentials/environments";
import type { Logger } from "@/lib/log";
import { timeInMessage } from "@/lib/format/time";

/** The one error shape of every console API response: `{"error": {"code", "message"}}`. */
export interface ConsoleErrorBody {
  error: { code: string; message: string };
}

/** An error the console reports to the caller as it is: status, a stable code and a message a person can act on. */
export class ConsoleError extends Error {
  /** `headers`: sent with the answer (a bank's `Retry-After`, passed on). */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ConsoleError";
  }

  toResponse(headers?: HeadersInit): Response {
    const body: ConsoleErrorBody = { error: { code: this.code, message: this.message } };
    return Response.json(body, { status: this.status, headers: { ...this.headers, ...Object.fromEntries(new Headers(headers)) } });
  }
}

export const unauthorized = () => new ConsoleError(401, "unauthorized", "Sign in to use the console.");
export const forbidden = (message = "Your role does not allow this.") => new ConsoleError(403, "forbidden", message);
export const notFound = (message = "No such route.") => new ConsoleError(404, "not_found", message);
export const badInput = (message: string) => new ConsoleError(400, "invalid_input", message);
export const bankNotConfigured = (environment: Environment) =>
  new ConsoleError(503, "bank_not_configured", `The ${environment} environment has no bank connection; an admin can configure one in Settings.`);

/** Bank 4xx statuses that mean the same to the console's caller; any other refusal is the console's problem (502). */
const passedThroughStatuses = new Set([400, 404, 409, 413, 422, 429]);

/** Who is told: admins (`credentials:manage`, who can fix a base URL) also see a bank reply outside the contract. */
export interface ErrorAudience {
  showUncontracted?: boolean;
}

/** A bank reply outside the contract's error shape, for admins only; others see the status alone. */
function uncontracted(error: { uncontracted?: string }, audience: ErrorAudience): string {
  return audience.showUncontracted && error.uncontracted ? ` The bank's reply (outside the contract): ${error.uncontracted}` : "";
}

/**
 * The bank's `Retry-After`, passed on to the browser with the console's 429 and 503, and said in the message: the
 * caller learns when to try again, and reads were already retried after that wait (lib/bank/transport.ts).
 */
function retryAfter(error: { retryAfterSeconds?: number }): { hint: string; headers: Record<string, string> } {
  if (error.retryAfterSeconds === undefined) return { hint: "", headers: {} };
  return { hint: `try again in ${error.retryAfterSeconds} s`, headers: { "Retry-After": String(error.retryAfterSeconds) } };
}

/** What the caller of the console should see for a failed bank call. Stack traces and credentials never leave. */
export function consoleErrorForBank(error: AnyBankError, audience: ErrorAudience = {}): ConsoleError {
  switch (error.kind) {
    case "invalid_request":
      return badInput(`Invalid request to the bank: ${error.problems.join("; ")}`);
    case "unreachable":
      return new ConsoleError(
        502,
        "bank_unreachable",
        "The bank could not be reached. Try again in a moment; if it persists, check the environment's base URL in Settings.",
      );
    case "timeout":
      return new ConsoleError(504, "bank_timeout", `The bank did not answer within ${error.timeoutMs} ms.`);
    case "rejected":
      if (error.status === 401 || error.status === 403) {
        return new ConsoleError(
          502,
          "bank_credentials_refused",
          "The bank refused the console's credentials for this environment; an admin can check them in Settings.",
        );
      }
      if (error.status === 429) {
        const { hint, headers } = retryAfter(error);
        return new ConsoleError(
          429,
          "bank_rate_limited",
          `The bank is limiting requests${hint ? ` (${hint})` : ""}: ${error.bankMessage}${uncontracted(error, audience)}`,
          headers,
        );
      }
      if (error.status === 404) return new ConsoleError(404, "not_found", `${error.bankMessage}${uncontracted(error, audience)}`);
      if (passedThroughStatuses.has(error.status))
        return new ConsoleError(error.status, "bank_rejected", `${error.bankMessage}${uncontracted(error, audience)}`);
      return new ConsoleError(
        502,
        "bank_rejected",
        `The bank refused the request (HTTP ${error.status}): ${error.bankMessage}${uncontracted(error, audience)}`,
      );
    case "server_error": {
      // A 503 says the bank is down for a while (maintenance, overload), which the caller can wait out: passed on as such.
      if (error.status === 503) {
        const { hint, headers } = retryAfter(error);
        const message = `The bank is unavailable (HTTP 503${hint ? `; ${hint}` : ""}): ${error.bankMessage}${uncontracted(error, audience)}`;
        return new ConsoleError(503, "bank_unavailable", message, headers);
      }
      return new ConsoleError(
        502,
        "bank_error",
        `The bank failed to handle the request (HTTP ${error.status}): ${error.bankMessage}${uncontracted(error, audience)}`,
      );
    }
    case "invalid_response":
      return new ConsoleError(502, "bank_invalid_response", `The bank's answer does not match the API contract: ${error.problems.join("; ")}`);
  }
}

/** A change refused because the bank is not answering (its breaker is open): nothing is sent, nothing kept to send later. */
export const changesPaused = (headers: Record<string, string> = {}) =>
  new ConsoleError(503, "bank_unavailable", "The bank is not answering; changes are paused. Nothing was sent or queued.", headers);

/** The console's breaker refused to call the bank (lib/bank/circuit.ts): a read says when it tries again, a change pauses. */
function circuitOpenAnswer(error: BankCircuitOpenError): ConsoleError {
  const { hint, headers } = retryAfter(error);
  if (error.method !== "GET") return changesPaused(headers);
  return new ConsoleError(
    503,
    "bank_unavailable",
    `The bank is not answering${error.failingSince ? ` since ${timeInMessage(error.failingSince)}` : ""}; the console stopped calling it for a while${hint ? ` (${hint})` : ""}.`,
    headers,
  );
}

/** Any thrown value as a ConsoleError; null for unexpected errors (the wrapper logs them and answers 500). */
export function asConsoleError(error: unknown, audience: ErrorAudience = {}): ConsoleError | null {
  if (error instanceof ConsoleError) return error;
  if (error instanceof BankCircuitOpenError) return circuitOpenAnswer(error);
  if (isBankError(error)) return consoleErrorForBank(error, audience);
  return null;
}

/**
 * What a failure becomes for the person who asked: a known error as itself, anything else logged with its stack and
 * answered as a 500 that says only the request id (the route wrapper and server page reads share it).
 */
export function failureAnswer(error: unknown, requestId: string, log: Logger, context: string, audience: ErrorAudience = {}): ConsoleError {
  const known = asConsoleError(error, audience);
  if (known) return known;
  log.error({ err: error }, `unexpected error ${context}`);
  return new ConsoleError(500, "internal_error", `Something went wrong in the console. Quote request id ${requestId} to an admin.`);
}
