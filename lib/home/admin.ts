import { and, eq, ne, sql } from "drizzle-orm";
import { countPending } from "@/lib/approvals/store";
import type { BankCircuitSnapshot } from "@/lib/bank/circuit";
import type { BankReachability } from "@/lib/bank/reachability";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import type { ConsoleDb } from "@/lib/db/console-db";
import type { LinkedCount } from "./attention-today";
import type { IndexCounts } from "./index-counts";

export interface AdminFigures {
  pendingApprovals: LinkedCount;
  bank: {
    /** What this console process last saw of the bank; null before it has tried it. */
    reachability: BankReachability | null;
    /** The breaker's position (open: reads are refused without asking the bank). */
    breaker: BankCircuitSnapshot | null;
  };
  index: {
    /** Seconds between the index's newest change and now; null while it holds nothing. */
    lagSeconds: number | null;
    lastChange: string | null;
    /** Bank notifications received and not yet applied. */
    waiting: number;
    href: string;
  };
}

/** What an admin watches: changes held for approval, whether the bank answers, and how far behind the index is. */
export async function adminFigures(
  db: ConsoleDb,
  environment: Environment,
  counts: IndexCounts | null,
  bank: AdminFigures["bank"],
): Promise<AdminFigures> {
  const [pending, [inbox]] = await Promise.all([
    countPending(db),
    db
      .select({ waiting: sql<number>`count(*)::int` })
      .from(schema.bankEventInbox)
      .where(and(eq(schema.bankEventInbox.environment, environment), ne(schema.bankEventInbox.state, "processed"))),
  ]);
  const lagSeconds = counts?.lastChange ? Math.max(0, Math.round((Date.parse(counts.asOf) - Date.parse(counts.lastChange)) / 1000)) : null;
  return {
    pendingApprovals: { count: pending, href: "/approvals?status=pending" },
    bank,
    index: { lagSeconds, lastChange: counts?.lastChange ?? null, waiting: inbox?.waiting ?? 0, href: "/settings/index" },
  };
}
