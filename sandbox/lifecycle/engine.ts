import { and, asc, eq, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { SandboxContext } from "@/sandbox/context";
import { achTransfers, fednowPayments, networkTransfers } from "@/sandbox/db/resources-schema";
import { emitEvent } from "@/sandbox/events/emit";
import type { ResourceName } from "@/lib/contract/names";
import { nextAchState, nextFednowState, nextNetworkTransferState } from "./transitions";

/** At speed 1 an object stays this long in each state; SANDBOX_LIFECYCLE_SPEED divides it. */
export const BASE_STEP_MS = 60_000;
/** Objects changed per transaction: keeps each transaction short (PGlite serves one transaction at a time). */
const CHANGES_PER_TRANSACTION = 20;
/** Objects of one resource advanced per pass at most; the rest wait for the next pass. */
const CANDIDATES_PER_PASS = 200;

export interface LifecycleTiming {
  /** Minimum time an object spends in a state before the engine moves it on. */
  stepMs: number;
  /** How often the engine looks for objects to move. */
  intervalMs: number;
}

export function lifecycleTiming(speed: number): LifecycleTiming {
  const stepMs = BASE_STEP_MS / speed;
  return { stepMs, intervalMs: Math.min(1000, Math.max(20, Math.round(stepMs / 4))) };
}

interface Change {
  id: string;
  /** Only applied while the row still matches this (another writer may have moved it meanwhile). */
  guard: SQL | undefined;
  set: Record<string, unknown>;
}

/**
 * Writes changes in short transactions: each row is updated only if still in the state it was read in, gets
 * updated_at = now, and emits `<resource>.update` in the same transaction. Returns how many rows changed.
 */
async function applyChanges(
  ctx: SandboxContext,
  resource: ResourceName,
  table: PgTable & { id: PgColumn },
  changes: Change[],
  now: Date,
): Promise<number> {
  let applied = 0;
  for (let start = 0; start < changes.length; start += CHANGES_PER_TRANSACTION) {
    const chunk = changes.slice(start, start + CHANGES_PER_TRANSACTION);
    applied += await ctx.db.transaction(async (tx) => {
      let count = 0;
      for (const change of chunk) {
        const updated = await tx
          .update(table)
          .set({ ...change.set, updated_at: now })
          .where(and(eq(table.id, change.id), change.guard))
          .returning({ id: table.id });
        if (updated.length === 0) continue;
        await emitEvent(tx, { resource, op: "update", id: change.id });
        count++;
      }
      return count;
    });
  }
  return applied;
}

async function advanceAch(ctx: SandboxContext, now: Date, cutoff: Date): Promise<number> {
  const rows = await ctx.db
    .select({ id: achTransfers.id, status: achTransfers.status, amount: achTransfers.amount })
    .from(achTransfers)
    .where(and(inArray(achTransfers.status, ["pending", "processing"]), lte(achTransfers.updated_at, cutoff)))
    .orderBy(asc(achTransfers.updated_at))
    .limit(CANDIDATES_PER_PASS);
  const changes = rows.flatMap((row): Change[] => {
    const next = nextAchState(row);
    return next ? [{ id: row.id, guard: eq(achTransfers.status, row.status), set: next }] : [];
  });
  return applyChanges(ctx, "ach", achTransfers, changes, now);
}

async function advanceNetworkTransfers(ctx: SandboxContext, now: Date, cutoff: Date): Promise<number> {
  const t = networkTransfers;
  const rows = await ctx.db
    .select({
      id: t.id,
      status: t.status,
      amount: t.amount,
      description: t.description,
      version: t.version,
      cross_bank: t.cross_bank,
      balanced_at: t.balanced_at,
    })
    .from(t)
    .where(
      and(
        lte(t.updated_at, cutoff),
        or(eq(t.status, "pending"), and(eq(t.status, "sent"), eq(t.version, "v2"), eq(t.cross_bank, true), isNull(t.balanced_at))),
      ),
    )
    .orderBy(asc(t.updated_at))
    .limit(CANDIDATES_PER_PASS);
  const changes = rows.flatMap((row): Change[] => {
    const next = nextNetworkTransferState(row, now);
    return next ? [{ id: row.id, guard: and(eq(t.status, row.status), isNull(t.balanced_at)), set: next }] : [];
  });
  return applyChanges(ctx, "network_transfer", t, changes, now);
}

async function advanceFednow(ctx: SandboxContext, now: Date, cutoff: Date): Promise<number> {
  const t = fednowPayments;
  const rows = await ctx.db
    .select({ id: t.id, status: t.status, amount: t.amount, payment_type: t.payment_type, external_status: t.external_status })
    .from(t)
    .where(
      and(
        lte(t.updated_at, cutoff),
        or(inArray(t.status, ["pending", "processing"]), and(eq(t.status, "sent"), inArray(t.external_status, ["pending", "processing"]))),
      ),
    )
    .orderBy(asc(t.updated_at))
    .limit(CANDIDATES_PER_PASS);
  const changes = rows.flatMap((row): Change[] => {
    const next = nextFednowState({ ...row, payment_type: row.payment_type === "debit" ? "debit" : "credit" });
    if (!next) return [];
    const guard = and(eq(t.status, row.status), sql`${t.external_status} IS NOT DISTINCT FROM ${row.external_status}`);
    return [{ id: row.id, guard, set: next }];
  });
  return applyChanges(ctx, "fednow", t, changes, now);
}

/**
 * One pass of the engine: moves every object that has spent at least `stepMs` in a non-terminal state one step on.
 * Returns how many objects changed. Tests call it directly (with stepMs 0) to step deterministically.
 */
export async function advanceOnce(ctx: SandboxContext, options: { stepMs?: number } = {}): Promise<number> {
  const now = new Date(Math.floor(ctx.now().getTime() / 1000) * 1000);
  const cutoff = new Date(now.getTime() - (options.stepMs ?? lifecycleTiming(ctx.settings.lifecycleSpeed).stepMs));
  return (await advanceAch(ctx, now, cutoff)) + (await advanceNetworkTransfers(ctx, now, cutoff)) + (await advanceFednow(ctx, now, cutoff));
}

/**
 * Starts advancing objects over time (SANDBOX_LIFECYCLE=on), a pass every `intervalMs`. A failed pass is logged and
 * the next one tries again. `stop()` waits for a pass in progress.
 */
export function startLifecycleEngine(ctx: SandboxContext): { stop(): Promise<void> } {
  if (ctx.settings.lifecycle === "off") return { stop: async () => {} };
  const timing = lifecycleTiming(ctx.settings.lifecycleSpeed);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();
  const schedule = () => {
    timer = setTimeout(() => {
      pass = advanceOnce(ctx, { stepMs: timing.stepMs })
        .then((changed) => {
          if (changed > 0) ctx.log.debug({ changed }, "lifecycle engine advanced objects");
        })
        .catch((error: unknown) => ctx.log.error({ err: error }, "lifecycle pass failed"))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, timing.intervalMs);
  };
  schedule();
  ctx.log.info(timing, "lifecycle engine started");
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}
