import type { Pool } from "pg";
import type { BankReachability } from "@/lib/bank/reachability";
import type { Environment } from "@/lib/credentials/environments";
import type { BankHealth } from "./bank-health";
import { isDraining } from "./shutdown";

/**
 * The console's readiness: 200 once its database is open, migrated and answering; otherwise 503, never a stack.
 * `bank` says what the console last saw of each bank it was asked to reach and the state of its circuit breaker
 * (lib/health/bank-health.ts): a bank that is down, its breaker open, does not make the console unready (staff still
 * sign in, read the index's copy of lists and details, the audit trail and settings), but signed-in staff who look at
 * the health route see it. Signed out it says only up or down: when staff last reached which bank is nobody else's business.
 * From a stop signal on (lib/health/shutdown.ts) it answers 503 "draining" at once, so a load balancer sends no more.
 */
export function readinessRoute(
  openDatabase: () => Promise<{ pool: Pick<Pool, "query"> }>,
  banks: () => Partial<Record<Environment, BankReachability | BankHealth>> = () => ({}),
  signedIn: () => Promise<boolean> = async () => false,
  draining: () => boolean = isDraining,
) {
  return async function GET(): Promise<Response> {
    if (draining()) return Response.json({ status: "draining" }, { status: 503, headers: { "cache-control": "no-store" } });
    const bank = async () => ((await signedIn().catch(() => false)) ? { bank: banks() } : {});
    try {
      const { pool } = await openDatabase();
      await pool.query("SELECT 1");
      return Response.json({ status: "ok", ...(await bank()) });
    } catch {
      return Response.json({ status: "unavailable", error: "The console's database is not reachable", ...(await bank()) }, { status: 503 });
    }
  };
}
