import { CircuitState, ConsecutiveBreaker, circuitBreaker, handleAll, isBrokenCircuitError, type CircuitBreakerPolicy } from "cockatiel";
import type { Environment } from "@/lib/credentials/environments";
import { metrics } from "@/lib/metrics/registry";
import { traceBankCall } from "@/lib/telemetry/spans";
import { BankRejectedError, BankServerError, BankTimeoutError, BankUnreachableError } from "./errors";
import type { BankRequest } from "./transport";

export type CircuitPosition = "closed" | "half_open" | "open";

/** What the breaker of one environment says now (the outage banner and `console_bank_circuit_state`). */
export interface BankCircuitSnapshot {
  state: CircuitPosition;
  /** When the breaker took its current state (ISO 8601); for a breaker that never moved, when it was made. */
  since: string;
  /** When the current run of failures began (the first of them), ISO 8601; null while the bank answers. */
  failingSince: string | null;
  /**
   * When a call last got an answer that shows the bank working (anything but a 5xx or a 429, a 4xx included), ISO
   * 8601; null when no call has since the process started.
   */
  lastAnsweredAt: string | null;
}

export interface BankCircuitOptions {
  /** Reads failing this many times in a row open the breaker (BANK_BREAKER_FAILURES). */
  failures: number;
  /** How long an open breaker refuses reads before one read probes the bank (BANK_BREAKER_HALF_OPEN_SECONDS). */
  halfOpenAfterMs: number;
}

/**
 * The bank was not called: its breaker is open (or a probe is under way) after reads failed in a row. A 503 like the
 * bank's own (lib/api/errors.ts names it apart), so every caller that handles a bank that is down handles this one.
 */
export class BankCircuitOpenError extends BankServerError {
  // Its base declares `name` as its own literal; the runtime name tells this refusal apart in logs.
  override readonly name = "BankCircuitOpenError" as "BankServerError";
  constructor(
    request: Pick<BankRequest, "operation" | "method" | "path">,
    readonly failingSince: string | null,
    retryAfterSeconds: number | undefined,
  ) {
    super(
      { operation: request.operation, method: request.method, path: request.path, attempts: 0 },
      503,
      "the console stopped calling the bank after reads failed in a row; nothing was sent",
      undefined,
      retryAfterSeconds,
    );
    // Said as what happened: the bank was not called (its base class would say the bank answered 503).
    this.message = `${request.operation} (${request.method} ${request.path}): not sent: the bank is not answering and the console stopped calling it for a while (its circuit breaker is open); nothing was sent or queued`;
  }
}

/**
 * Failures that say the bank cannot answer now: no connection, no answer in time, a 5xx, a 429. Any other refusal
 * (a 4xx) is an answer, and counts as the bank being there.
 */
export function bankCannotAnswer(error: unknown): boolean {
  if (error instanceof BankUnreachableError || error instanceof BankTimeoutError || error instanceof BankServerError) return true;
  return error instanceof BankRejectedError && error.status === 429;
}

const positions: Record<CircuitState, CircuitPosition> = {
  [CircuitState.Closed]: "closed",
  [CircuitState.HalfOpen]: "half_open",
  [CircuitState.Open]: "open",
  // Never isolated by the console; shown as what it does.
  [CircuitState.Isolated]: "open",
};
const gaugeValues: Record<CircuitPosition, number> = { closed: 0, half_open: 1, open: 2 };

/**
 * What one environment's breaker holds, shared by every copy of this module in the process: Next.js bundles
 * instrumentation.ts (the index) and each route with its own copy, so the breaker's state lives on globalThis while
 * each copy runs calls through it with its own error classes (`circuitOver`). A copy must never test another copy's
 * errors with instanceof: the policy counts whatever a run hands it (only failures that say the bank cannot answer are
 * handed over), and a refusal is recognised by cockatiel's duck-typed `isBrokenCircuitError`.
 */
interface SharedCircuit {
  policy: CircuitBreakerPolicy;
  halfOpenAfterMs: number;
  failingSince: number | null;
  openedAt: number;
  stateSince: number;
  lastAnsweredAt: number | null;
}

function createCircuitState(environment: Environment, options: BankCircuitOptions): SharedCircuit {
  const policy = circuitBreaker(handleAll, { halfOpenAfter: options.halfOpenAfterMs, breaker: new ConsecutiveBreaker(options.failures) });
  const state: SharedCircuit = {
    policy,
    halfOpenAfterMs: options.halfOpenAfterMs,
    failingSince: null,
    openedAt: 0,
    stateSince: Date.now(),
    lastAnsweredAt: null,
  };
  const gauge = metrics.bankCircuitState.labels({ environment });
  gauge.set(0);
  policy.onStateChange((position) => {
    gauge.set(gaugeValues[positions[position]]);
    state.stateSince = Date.now();
  });
  policy.onBreak(() => (state.openedAt = Date.now()));
  policy.onFailure(() => (state.failingSince ??= Date.now()));
  policy.onSuccess(() => (state.failingSince = null));
  return state;
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function snapshotOf(state: SharedCircuit): BankCircuitSnapshot {
  return {
    state: positions[state.policy.state],
    since: new Date(state.stateSince).toISOString(),
    failingSince: iso(state.failingSince),
    lastAnsweredAt: iso(state.lastAnsweredAt),
  };
}

/**
 * One environment's breaker on bank reads (cockatiel's consecutive breaker), as this copy of the module runs calls
 * through it. A read (GET) runs through it: after `failures` reads in a row could not be answered it opens, and for
 * `halfOpenAfterMs` every read fails at once with `BankCircuitOpenError`, sending nothing. The next read after that is
 * the probe (half-open; other reads meanwhile fail at once rather than wait for it): its success closes the breaker,
 * its failure opens it again. A change is never counted (it is sent once, and its failure may be the bank refusing it)
 * and is refused while the breaker is not closed: changes pause until a read has shown the bank answers.
 */
function circuitOver(environment: Environment, state: SharedCircuit) {
  const { policy } = state;
  const refused = (request: BankRequest) => {
    const left = Math.ceil((state.openedAt + state.halfOpenAfterMs - Date.now()) / 1000);
    return new BankCircuitOpenError(request, iso(state.failingSince), Math.max(1, left));
  };

  /** `send`, noting when the bank answered (the health route's "last answered"). */
  async function sendNoted<T>(send: () => Promise<T>): Promise<T> {
    try {
      const answer = await send();
      state.lastAnsweredAt = Date.now();
      return answer;
    } catch (error) {
      if (!bankCannotAnswer(error)) state.lastAnsweredAt = Date.now();
      throw error;
    }
  }

  async function runThrough<T>(request: BankRequest, unnoted: () => Promise<T>): Promise<T> {
    const send = () => sendNoted(unnoted);
    if (request.method !== "GET") {
      if (policy.state !== CircuitState.Closed) throw refused(request);
      return send();
    }
    if (policy.state === CircuitState.HalfOpen) throw refused(request);
    // Only a failure that says the bank cannot answer reaches the policy; any other (a 4xx) is handed through as a
    // value: to the breaker it is the bank answering.
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = await policy.execute(async () => {
        try {
          return { value: await send() };
        } catch (error) {
          if (bankCannotAnswer(error)) throw error;
          return { error };
        }
      });
    } catch (error) {
      if (isBrokenCircuitError(error)) throw refused(request);
      throw error;
    }
    if ("error" in outcome) throw outcome.error;
    return outcome.value;
  }

  return {
    environment,
    /** One call through the breaker, traced as a span that carries the breaker's state as the call starts. */
    run<T>(request: BankRequest, send: () => Promise<T>): Promise<T> {
      const call = { operation: request.operation, method: request.method, environment, circuitState: positions[policy.state] };
      return traceBankCall(call, () => runThrough(request, send));
    },
    snapshot: () => snapshotOf(state),
  };
}

export type BankCircuit = ReturnType<typeof circuitOver>;

/** A breaker of its own, shared with nothing (tests, benchmarks). */
export function createBankCircuit(environment: Environment, options: BankCircuitOptions): BankCircuit {
  return circuitOver(environment, createCircuitState(environment, options));
}

/** One breaker state per environment per process, kept on globalThis: Next.js bundles each route with its own copy of a module. */
const circuits: Map<Environment, SharedCircuit> = ((globalThis as { __bankCircuitStates?: Map<Environment, SharedCircuit> }).__bankCircuitStates ??=
  new Map());

/** The process's breaker for `environment` (its state made with `options` on first use), run by this copy of the module. */
export function bankCircuit(environment: Environment, options: BankCircuitOptions): BankCircuit {
  let state = circuits.get(environment);
  if (!state) circuits.set(environment, (state = createCircuitState(environment, options)));
  return circuitOver(environment, state);
}

/** What the breaker of `environment` says, or null when this process has not read that bank yet. */
export function bankCircuitSnapshot(environment: Environment): BankCircuitSnapshot | null {
  const state = circuits.get(environment);
  return state ? snapshotOf(state) : null;
}
