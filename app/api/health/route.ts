import { getCurrentUser } from "@/lib/auth/current-user";
import { bankCircuitSnapshot } from "@/lib/bank/circuit";
import { bankReachability } from "@/lib/bank/reachability";
import { consoleDb } from "@/lib/db/console";
import { bankHealth } from "@/lib/health/bank-health";
import { readinessRoute } from "@/lib/health/readiness";

export const GET = readinessRoute(
  consoleDb,
  bankHealth(bankReachability.snapshot, bankCircuitSnapshot),
  async () => (await getCurrentUser()) !== null,
);
