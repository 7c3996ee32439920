import { eq } from "drizzle-orm";
import type { BankClient } from "@/lib/bank/client";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import { runBackfill } from "@/lib/index/backfill";
import { createLogger } from "@/lib/log";

/** One object as the console's index holds it. */
export interface IndexedObject {
  id: string;
  resource: string;
  state: Record<string, unknown>;
  /** The bank's created_at, null where the object has none. */
  createdAt: Date | null;
}

/**
 * Fills the console's index from a test file's sandbox bank as the start-up walk does (lib/index/backfill.ts), and
 * answers every object it then holds: the brute force an index read is checked against.
 */
export async function backfilledIndex(db: ConsoleDb, bank: BankClient): Promise<IndexedObject[]> {
  await runBackfill({ db, client: bank, environment: "sandbox", pageSize: 500, pagesPerSecond: 0, log: createLogger({ level: "silent" }) });
  const rows = await db.select().from(schema.bankObjects).where(eq(schema.bankObjects.environment, "sandbox"));
  return rows
    .filter((row) => row.state !== null)
    .map((row) => ({ id: row.id, resource: row.resource, state: row.state as Record<string, unknown>, createdAt: row.bankCreatedAt }));
}
