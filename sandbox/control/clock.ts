import { sql } from "drizzle-orm";
import type { Hono } from "hono";
import { z } from "zod";
import type { SandboxContext } from "../context";
import type { SandboxDb } from "../db";
import { sandboxClock } from "../db/clock-schema";
import { badRequest } from "../http/errors";
import { readJsonBody } from "../http/request";
import type { AppEnv } from "../routes/app-env";
import { parseIsoDuration } from "@/lib/contract/sandbox-control";
import { controlOperations } from "./openapi-paths";

/** The longest single advance: a year and a day is enough to cross any date a test cares about. */
const maxAdvanceDays = 366;
const maxAdvanceMs = maxAdvanceDays * 86_400_000;

/**
 * The sandbox bank's clock: the wall clock plus an offset that only `POST /sandbox/clock/advance` moves (forward)
 * and `resetClock` puts back to zero. The offset is kept in `sandbox.clock` (so a restart and a snapshot keep it) and
 * cached here, so that `now()` never reads the database. One process owns the cache: a second sandbox process on
 * the same PostgreSQL sees another's advance only after its own restart.
 *
 * Because the offset is never negative, the sandbox clock never lies behind the database's `now()`: rows stamped by
 * the database (a new delivery's `next_attempt_at`) are never in the sandbox's future.
 */
export class SandboxClock {
  private readonly advanceListeners = new Set<() => Promise<void>>();

  private constructor(private offsetMs: number) {}

  /** Reads the stored offset (none stored: zero). */
  static async load(db: SandboxDb): Promise<SandboxClock> {
    return new SandboxClock(await storedOffsetMs(db));
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves the clock forward by `ms`, then waits for what follows the clock (the lifecycle engine) to catch up. */
  async advance(db: SandboxDb, ms: number): Promise<void> {
    const result = await db.execute<{ offset_ms: string }>(sql`
      insert into sandbox.clock as clock (id, offset_ms) values (1, ${ms})
      on conflict (id) do update set offset_ms = clock.offset_ms + excluded.offset_ms
      returning offset_ms`);
    this.offsetMs = Number(result.rows[0]!.offset_ms);
    for (const listener of this.advanceListeners) await listener();
  }

  /** Sets the offset to what is stored (after the stored one was replaced, e.g. by a snapshot restore). */
  async reload(db: SandboxDb): Promise<void> {
    this.offsetMs = await storedOffsetMs(db);
  }

  /** Calls `listener` after every advance (and waits for it); returns the unsubscription. */
  onAdvance(listener: () => Promise<void>): () => void {
    this.advanceListeners.add(listener);
    return () => this.advanceListeners.delete(listener);
  }
}

async function storedOffsetMs(db: SandboxDb): Promise<number> {
  const [row] = await db.select({ offsetMs: sandboxClock.offset_ms }).from(sandboxClock);
  return row?.offsetMs ?? 0;
}

/**
 * Puts the sandbox clock back to the wall clock (offset zero, stored and cached). For a reset of the sandbox: call it
 * after the data is replaced, since objects stamped later than the wall clock stay in the future otherwise.
 */
export async function resetClock(ctx: SandboxContext): Promise<void> {
  await ctx.db.delete(sandboxClock);
  await ctx.clock?.reload(ctx.db);
}

/** Re-reads the stored offset into the running clock: call it after restoring `sandbox.clock` (snapshot restore). */
export async function reloadClock(ctx: SandboxContext): Promise<void> {
  await ctx.clock?.reload(ctx.db);
}

/** `YYYY-MM-DDTHH:MM:SSZ`, the form of every time the API answers. */
const apiTime = (instant: Date) => `${instant.toISOString().slice(0, 19)}Z`;

const clockBody = z.object({ now: z.string().describe("The sandbox clock, RFC 3339 in UTC (YYYY-MM-DDTHH:MM:SSZ).") });
const advanceBody = z.strictObject({
  by: z.string().max(64).describe(`How far to move the clock forward: an ISO 8601 duration (PT1H, P1D, P1W), at most P${maxAdvanceDays}D.`),
});

/** GET /sandbox/clock and POST /sandbox/clock/advance (docs/sandbox-control.md, "Clock"). */
export function mountClock(app: Hono<AppEnv>, ctx: SandboxContext): void {
  const clock = ctx.clock;
  // Only a context made by startSandbox has a stored clock; a hand-moved test clock has nothing to advance.
  if (!clock) return;
  app.get("/sandbox/clock", (c) => c.json({ now: apiTime(clock.now()) }));
  app.post("/sandbox/clock/advance", async (c) => {
    const { by } = await readJsonBody(c, advanceBody);
    const parsed = parseIsoDuration(by);
    if ("problem" in parsed) throw badRequest(`by: ${parsed.problem}`);
    if (parsed.ms > maxAdvanceMs) throw badRequest(`by: at most P${maxAdvanceDays}D at a time (got ${JSON.stringify(by)})`);
    await clock.advance(ctx.db, parsed.ms);
    return c.json({ now: apiTime(clock.now()) });
  });
}

controlOperations.push(
  {
    method: "get",
    path: "/sandbox/clock",
    operationId: "get_sandbox_clock",
    summary: "The sandbox clock",
    description: "The time the sandbox bank lives at: the wall clock plus every advance since the last reset.",
    response: { status: 200, description: "The sandbox clock", schema: clockBody },
  },
  {
    method: "post",
    path: "/sandbox/clock/advance",
    operationId: "advance_sandbox_clock",
    summary: "Move the sandbox clock forward",
    description:
      "Moves the clock forward and answers once the lifecycle engine (when on) has taken every step the elapsed time allows, with the events it fires. Webhook retries that fall due are sent at once.",
    body: advanceBody,
    response: { status: 200, description: "The clock after the advance", schema: clockBody },
  },
);
