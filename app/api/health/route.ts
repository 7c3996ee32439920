import { getCurrentUser } from "@/lib/auth/current-user";
import { bankReachability } from "@/lib/bank/reachability";
import { consoleDb } from "@/lib/db/console";
import { readinessRoute } from "@/lib/health/readiness";

export const GET = readinessRoute(consoleDb, bankReachability.snapshot, async () => (await getCurrentUser()) !== null);
