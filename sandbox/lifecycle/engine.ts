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

export interface Change {
  id: string;
  /** Only applied while the row still matches this (another writer may have moved it meanwhile). */
  guard: SQL | undefined;
  set: Record<string, unknown>;
  /** When the change happens (its updated_at); unset: the `now` it is applied with. */
  at?: Date;
}

/**
 * Writes changes in short transactions: each row is updated only if still in the state it was read in, gets
 * updated_at = now, and emits `<resource>.update` in the same transaction. Returns how many rows changed. The control
 * API's transitions write through it too, so a step taken on demand is the step the lifecycle takes.
 */
export async function applyChanges(
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
          .set({ ...change.set, updated_at: change.at ?? now })
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

async function advanceAch(ctx: SandboxContext, pass: Pass): Promise<number> {
  const { now, cutoff } = pass;
  const rows = await ctx.db
    .select({ id: achTransfers.id, status: achTransfers.status, amount: achTransfers.amount, updated_at: achTransfers.updated_at })
    .from(achTransfers)
    .where(and(inArray(achTransfers.status, ["pending", "processing"]), lte(achTransfers.updated_at, cutoff)))
    .orderBy(asc(achTransfers.updated_at))
    .limit(CANDIDATES_PER_PASS);
  const changes = rows.flatMap((row): Change[] => {
    const next = nextAchState(row);
    return next ? [{ id: row.id, guard: eq(achTransfers.status, row.status), set: next, at: pass.stepAt(row.updated_at) }] : [];
  });
  return applyChanges(ctx, "ach", achTransfers, changes, now);
}

/** What a network transfer's next step reads (nextNetworkTransferState); the control API's transitions read the same. */
export const networkTransferStepColumns = {
  id: networkTransfers.id,
  status: networkTransfers.status,
  amount: networkTransfers.amount,
  description: networkTransfers.description,
  version: networkTransfers.version,
  cross_bank: networkTransfers.cross_bank,
  balanced_at: networkTransfers.balanced_at,
};
/** A step applies only to a transfer still in the status it was read in and not yet balanced. */
export const networkTransferStepGuard = (row: { status: string }) =>
  and(eq(networkTransfers.status, row.status), isNull(networkTransfers.balanced_at));

async function advanceNetworkTransfers(ctx: SandboxContext, pass: Pass): Promise<number> {
  const { now, cutoff } = pass;
  const t = networkTransfers;
  const rows = await ctx.db
    .select({ ...networkTransferStepColumns, updated_at: t.updated_at })
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
    const at = pass.stepAt(row.updated_at);
    const next = nextNetworkTransferState(row, at);
    return next ? [{ id: row.id, guard: networkTransferStepGuard(row), set: next, at }] : [];
  });
  return applyChanges(ctx, "network_transfer", t, changes, now);
}

async function advanceFednow(ctx: SandboxContext, pass: Pass): Promise<number> {
  const { now, cutoff } = pass;
  const t = fednowPayments;
  const rows = await ctx.db
    .select({
      id: t.id,
      status: t.status,
      amount: t.amount,
      payment_type: t.payment_type,
      external_status: t.external_status,
      updated_at: t.updated_at,
    })
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
    return [{ id: row.id, guard, set: next, at: pass.stepAt(row.updated_at) }];
  });
  return applyChanges(ctx, "fednow", t, changes, now);
}

/** What one round of a pass needs: the time, the latest updated_at that is due, and when a due object moves. */
interface Pass {
  now: Date;
  cutoff: Date;
  stepAt(updatedAt: Date): Date;
}

const SECOND_MS = 1000;

/**
 * One pass of the engine: moves every object that has spent at least `stepMs` in a non-terminal state one step on,
 * at `now`. Returns how many objects changed. Tests call it directly (with stepMs 0) to step deterministically.
 *
 * With `since` (the sandbox clock at the previous pass) the pass replays the time in between instead, as the network
 * would have lived it: each object moves when it became due (`stepMs` after its last change, or `since` when it
 * was due already), as many steps as fit until now, each at its own instant with its own event. After an advance of
 * the sandbox clock this is a day of the network's steps, taken at once.
 */
export async function advanceOnce(ctx: SandboxContext, options: { stepMs?: number; since?: Date } = {}): Promise<number> {
  const now = new Date(Math.floor(ctx.now().getTime() / SECOND_MS) * SECOND_MS);
  const stepMs = options.stepMs ?? lifecycleTiming(ctx.settings.lifecycleSpeed).stepMs;
  const { since } = options;
  const pass: Pass = {
    now,
    cutoff: new Date(now.getTime() - stepMs),
    // Whole seconds, as the API shows times; never later than now (a due object's updated_at + stepMs is not).
    stepAt: (updatedAt) =>
      since ? new Date(Math.min(now.getTime(), Math.ceil(Math.max(updatedAt.getTime() + stepMs, since.getTime()) / SECOND_MS) * SECOND_MS)) : now,
  };
  let changed = 0;
  for (;;) {
    const round = (await advanceAch(ctx, pass)) + (await advanceNetworkTransfers(ctx, pass)) + (await advanceFednow(ctx, pass));
    changed += round;
    // Without `since` every due object moves once, to now; with it, an object may have more steps due.
    if (round === 0 || !since) return changed;
  }
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
  /**
   * The sandbox clock at the start of the last pass that succeeded (first: the engine's start): the next pass replays
   * the time since, so an object due before the start moves at the start, and an advance of the clock is lived through.
   */
  let lastPassAt = ctx.now();
  // Passes run one at a time, whether the timer or an advance of the clock asks for them.
  let passes: Promise<void> = Promise.resolve();
  const runPass = () => {
    passes = passes.then(async () => {
      const startedAt = ctx.now();
      try {
        const changed = await advanceOnce(ctx, { stepMs: timing.stepMs, since: lastPassAt });
        lastPassAt = startedAt;
        if (changed > 0) ctx.log.debug({ changed }, "lifecycle engine advanced objects");
      } catch (error) {
        ctx.log.error({ err: error }, "lifecycle pass failed");
      }
    });
    return passes;
  };
  const schedule = () => {
    timer = setTimeout(() => {
      void runPass().finally(() => {
        if (!stopped) schedule();
      });
    }, timing.intervalMs);
  };
  schedule();
  // An advance of the sandbox clock answers once the elapsed time's steps are taken (the advance waits for this pass).
  const unsubscribe = ctx.clock?.onAdvance(runPass);
  ctx.log.info(timing, "lifecycle engine started");
  return {
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearTimeout(timer);
      await passes;
    },
  };
}
