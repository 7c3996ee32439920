import "server-only";
import type { StaffUser } from "@/lib/auth/staff-user";
import { bankCircuitSnapshot } from "@/lib/bank/circuit";
import { bankReachability } from "@/lib/bank/reachability";
import type { Environment } from "@/lib/credentials/environments";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { can } from "@/lib/permissions";
import { adminFigures, type AdminFigures } from "./admin";
import { outcomesOfDays, stuckTransfers, volumeByDay, type KindVolume, type OutcomeFigure, type StuckFigure } from "./attention-today";
import { homeClock, type HomeClock } from "./clock";
import { complianceFigures, type ComplianceFigures } from "./compliance";
import { attentionItems, homeIndexCounts, type AttentionItem } from "./overview";
import type { IndexCounts } from "./index-counts";
import { daysEndingAt, type ZoneDay } from "./zone-days";

/** A part of Home read, or why it could not be (the rest of Home still shows). */
export type Read<T> = { ok: true; value: T } | { ok: false; error: string };

async function read<T>(load: () => Promise<T>): Promise<Read<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** How many days the volume trend shows, today included. */
export const trendDays = 14;

export interface HomeOverview {
  clock: HomeClock;
  zone: string;
  today: ZoneDay;
  days: ZoneDay[];
  counts: IndexCounts | null;
  operations: {
    outcomes: Read<OutcomeFigure[]>;
    stuck: Read<StuckFigure[]>;
    volumes: Read<KindVolume[]>;
    attention: AttentionItem[];
  };
  /** For reviewers (`review:decide`). */
  compliance?: Read<ComplianceFigures>;
  /** For admins (`staff:manage`). */
  admin?: Read<AdminFigures>;
}

/**
 * Everything Home shows, by role: operations figures for everyone, the review queue's for reviewers, approvals, the
 * bank and the index for admins. "Today" is the day in the staff member's zone on the clock the objects' times
 * follow (the sandbox's in the sandbox).
 */
export async function homeOverview(user: StaffUser, environment: Environment, zone: string): Promise<HomeOverview> {
  const [clock, counts] = await Promise.all([homeClock(environment), homeIndexCounts(environment)]);
  const days = daysEndingAt(clock.now, zone, trendDays);
  const [yesterday, today] = days.slice(-2) as [ZoneDay, ZoneDay];
  const db = async () => (await consoleDb()).db;
  const [outcomes, stuck, volumes, attention, compliance, admin] = await Promise.all([
    read(async () => outcomesOfDays(await db(), environment, today, yesterday)),
    read(async () => stuckTransfers(await db(), environment, clock.now)),
    read(async () => volumeByDay(await db(), environment, days)),
    attentionItems(user, counts),
    can(user.role, "review:decide")
      ? read(async () => complianceFigures(await db(), environment, user, env.REVIEW_SLA_HOURS, new Date()))
      : undefined,
    can(user.role, "staff:manage")
      ? read(async () =>
          adminFigures(await db(), environment, counts, {
            reachability: bankReachability.snapshot()[environment] ?? null,
            breaker: bankCircuitSnapshot(environment),
          }),
        )
      : undefined,
  ]);
  return {
    clock,
    zone,
    today,
    days,
    counts,
    operations: { outcomes, stuck, volumes, attention },
    ...(compliance && { compliance }),
    ...(admin && { admin }),
  };
}
