/**
 * Every way a call to the bank can fail, as one family of errors. Callers switch on `kind` (or use instanceof);
 * the console's route wrapper maps each kind to one HTTP status (`lib/api/errors.ts`).
 */

/** Which operation failed: enough to say what happened in a log line, never a credential. */
export interface BankCallDescription {
  operation: string;
  method: string;
  path: string;
  /** How many HTTP requests were sent for this call (retries included). */
  attempts: number;
}

export type BankErrorKind = "invalid_request" | "unreachable" | "timeout" | "rejected" | "server_error" | "invalid_response";

export abstract class BankError extends Error {
  abstract readonly kind: BankErrorKind;
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;

  constructor(call: BankCallDescription, message: string, options?: { cause?: unknown }) {
    super(`${call.operation} (${call.method} ${call.path}): ${message}`, options);
    this.operation = call.operation;
    this.method = call.method;
    this.path = call.path;
    this.attempts = call.attempts;
  }
}

/** The request does not match the contract, so it was not sent; `problems` name the fields. */
export class BankInvalidRequestError extends BankError {
  override readonly name = "BankInvalidRequestError";
  readonly kind = "invalid_request";
  constructor(
    call: BankCallDescription,
    readonly problems: string[],
  ) {
    super(call, `the request does not match the contract, nothing was sent: ${problems.join("; ")}`);
  }
}

/** No HTTP answer: connection refused, reset, dropped, DNS failure. */
export class BankUnreachableError extends BankError {
  override readonly name = "BankUnreachableError";
  readonly kind = "unreachable";
}

/** The bank did not answer (headers and body) within the timeout. */
export class BankTimeoutError extends BankError {
  override readonly name = "BankTimeoutError";
  readonly kind = "timeout";
  constructor(
    call: BankCallDescription,
    readonly timeoutMs: number,
  ) {
    super(call, `no complete answer within ${timeoutMs} ms`);
  }
}

/** The bank answered with an error status; `bankMessage` is the bank's own explanation. */
abstract class BankStatusError extends BankError {
  /**
   * `uncontracted`: a body outside the contract's error shape, shown to admins only (lib/api/errors.ts).
   * `retryAfterSeconds`: the bank's `Retry-After` in seconds, when it sent one, passed on to the console's caller.
   */
  constructor(
    call: BankCallDescription,
    readonly status: number,
    readonly bankMessage: string,
    readonly uncontracted?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(call, `the bank answered ${status}: ${bankMessage}`);
  }
}

/** The bank refused the request with a 4xx. */
export class BankRejectedError extends BankStatusError {
  override readonly name = "BankRejectedError";
  readonly kind = "rejected";
}

/** The bank answered with a 5xx. */
export class BankServerError extends BankStatusError {
  override readonly name = "BankServerError";
  readonly kind = "server_error";
}

/** The bank answered 2xx but the body is not JSON or does not match the contract; `problems` name the fields. */
export class BankInvalidResponseError extends BankError {
  override readonly name = "BankInvalidResponseError";
  readonly kind = "invalid_response";
  constructor(
    call: BankCallDescription,
    readonly problems: string[],
  ) {
    super(call, `the answer does not match the contract: ${problems.join("; ")}`);
  }
}

/** The concrete bank errors, discriminated by `kind`. */
export type AnyBankError =
  BankInvalidRequestError | BankUnreachableError | BankTimeoutError | BankRejectedError | BankServerError | BankInvalidResponseError;

export function isBankError(error: unknown): error is AnyBankError {
  return error instanceof BankError;
}
