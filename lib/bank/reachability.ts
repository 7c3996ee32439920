import type { Environment } from "@/lib/credentials/environments";

/** Whether the console's last attempt to reach an environment's bank got an answer, and since when that holds. */
export interface BankReachability {
  state: "reachable" | "unreachable";
  /** When the state last changed (ISO 8601). */
  since: string;
  /** When the bank was last tried (ISO 8601). */
  checkedAt: string;
}

/**
 * What this console process has seen of each bank, for its health answer. Passive: it records the outcome of the
 * requests staff make anyway (lib/bank/console-client.ts) and never calls a bank itself, so a load balancer polling
 * the health route sends nothing to a production bank. An environment not tried since the process started is absent.
 */
export function createBankReachability(now: () => number = Date.now) {
  // Times kept as numbers and formatted when asked: recording runs on every bank request.
  const seen = new Map<Environment, { reached: boolean; since: number; checkedAt: number }>();
  return {
    record(environment: Environment, reached: boolean): void {
      const at = now();
      const previous = seen.get(environment);
      seen.set(environment, { reached, since: previous?.reached === reached ? previous.since : at, checkedAt: at });
    },
    snapshot(): Partial<Record<Environment, BankReachability>> {
      const iso = (ms: number) => new Date(ms).toISOString();
      return Object.fromEntries(
        [...seen].map(([environment, { reached, since, checkedAt }]) => [
          environment,
          { state: reached ? "reachable" : "unreachable", since: iso(since), checkedAt: iso(checkedAt) },
        ]),
      );
    },
  };
}

/** The console process's record (one per process, like its bank clients). */
export const bankReachability = createBankReachability();
