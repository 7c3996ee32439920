import type { BankCircuitSnapshot } from "@/lib/bank/circuit";
import type { BankReachability } from "@/lib/bank/reachability";
import type { Environment } from "@/lib/credentials/environments";

/**
 * What the health route tells signed-in staff of one environment's bank: whether its last attempt got an answer
 * (lib/bank/reachability.ts), and its circuit breaker (lib/bank/circuit.ts): closed, open or half-open, since when,
 * when the current run of failures began and when the bank last answered. Null `circuit` in a process that has not
 * read that bank through a breaker.
 */
export type BankHealth = BankReachability & { circuit: BankCircuitSnapshot | null };

/** Each environment this process has called, its reachability and its breaker side by side. Reads no bank. */
export function bankHealth(
  reachability: () => Partial<Record<Environment, BankReachability>>,
  circuitOf: (environment: Environment) => BankCircuitSnapshot | null,
): () => Partial<Record<Environment, BankHealth>> {
  return () =>
    Object.fromEntries(
      Object.entries(reachability()).map(([environment, seen]) => [environment, { ...seen, circuit: circuitOf(environment as Environment) }]),
    );
}
