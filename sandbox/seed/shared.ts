import { achEffectiveDate, achScheduledSettlement, bankDateOf, estimatedSettlementAt } from "@/sandbox/lifecycle/calendar";
import { magicCents } from "@/sandbox/lifecycle/magic";
import type { SeededRandom } from "./random";
import { firstNames, lastNames, streetNames, unitPrefixes, usCities } from "./vocabulary";
import type { Address } from "@/sandbox/db/resources-schema";

const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Seeded objects are created within this many days before now. */
export const HISTORY_DAYS = 90;

/** A whole-second instant: the API's timestamps have no fractions, and equal inputs must give equal rows. */
export function wholeSeconds(instant: Date | number): Date {
  const time = typeof instant === "number" ? instant : instant.getTime();
  return new Date(time - (((time % SECOND) + SECOND) % SECOND));
}

/** An instant between `maxAgeMs` and `minAgeMs` before `now`. */
export function pastInstant(rng: SeededRandom, now: Date, maxAgeMs: number, minAgeMs = 0): Date {
  return wholeSeconds(now.getTime() - minAgeMs - rng.next() * (maxAgeMs - minAgeMs));
}

/** An instant after `from` by up to `maxDelayMs`, never after `now`. */
export function laterInstant(rng: SeededRandom, from: Date, now: Date, maxDelayMs: number): Date {
  return wholeSeconds(Math.min(now.getTime(), from.getTime() + rng.next() * maxDelayMs));
}

/** Two-decimal money string from integer cents (money never goes through floats). */
export function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/**
 * A realistic amount: mostly tens to thousands of dollars, sometimes large. `cents` forces the two decimals (to
 * trigger a magic outcome); otherwise the decimals avoid every magic value, so the object succeeds.
 */
export function amount(rng: SeededRandom, cents?: string): string {
  const dollars = rng.weighted<[number, number]>([
    [[1, 99], 3],
    [[100, 999], 4],
    [[1_000, 9_999], 3],
    [[10_000, 250_000], 1],
  ]);
  const whole = rng.int(dollars[0], dollars[1]);
  if (cents !== undefined) return `${whole}.${cents}`;
  let fraction = rng.chance(0.3) ? 0 : rng.int(0, 99);
  while (magicCents.has(String(fraction).padStart(2, "0"))) fraction = rng.int(0, 99);
  return formatCents(whole * 100 + fraction);
}

export function id(rng: SeededRandom, prefix: string, suffix = ""): string {
  return `${prefix}${rng.token(20)}${suffix}`;
}

export function personName(rng: SeededRandom): { first: string; last: string } {
  return { first: rng.pick(firstNames), last: rng.pick(lastNames) };
}

/** An email address at a reserved example domain. */
export function emailFor(rng: SeededRandom, first: string, last: string): string {
  const local = `${first}.${last}`.toLowerCase().replace(/[^a-z0-9.]/g, "");
  return `${local}${rng.chance(0.4) ? rng.int(1, 99) : ""}@${rng.pick(["example.com", "example.org", "example.net"])}`;
}

/** A US phone number in the 555-01xx range reserved for fiction, E.164. */
export function phoneNumber(rng: SeededRandom): string {
  return `+1${rng.pick(["212", "312", "415", "512", "617", "206", "303", "404"])}55501${rng.digits(2)}`;
}

export function usAddress(rng: SeededRandom): Address {
  const [city, state, zipPrefix] = rng.pick(usCities);
  return {
    street_line_1: `${rng.int(1, 9899)} ${rng.pick(streetNames)}`,
    street_line_2: rng.chance(0.3) ? `${rng.pick(unitPrefixes)} ${rng.int(1, 40)}${rng.pick(["", "A", "B", "C"])}` : null,
    city,
    state,
    postal_code: `${zipPrefix}${rng.digits(2)}`,
    country: "US",
  };
}

export function accountNumber(rng: SeededRandom): string {
  return rng.digits(rng.int(9, 12));
}

/** Entities every generator refers to: accounts, organizations, banks. Not resources of the API themselves. */
export interface SeedWorld {
  accountIds: string[];
  orgIds: string[];
  bankIds: string[];
}

export function createWorld(rng: SeededRandom): SeedWorld {
  return {
    accountIds: Array.from({ length: 40 }, () => id(rng, "acct_")),
    orgIds: Array.from({ length: 4 }, () => id(rng, "org_")),
    bankIds: Array.from({ length: 2 }, () => id(rng, "bank_")),
  };
}

/**
 * Calendar answers memoized by hour: every boundary of the calendar (opening, closing, same-day cut-off) falls on a
 * whole hour in New York, whose offset from UTC is a whole number of hours, so one answer serves a whole UTC hour.
 * This keeps a million-row seed from spending its time in time-zone arithmetic.
 */
export class CalendarCache {
  private readonly effectiveDates = new Map<number, string>();
  private readonly settlements = new Map<number, Date | null>();
  private readonly bankDates = new Map<number, string>();
  private readonly scheduledSettlements = new Map<string, Date>();

  effectiveDate(createdAt: Date, service: "standard" | "sameday"): string {
    const key = hourOf(createdAt) * 2 + (service === "sameday" ? 1 : 0);
    return memo(this.effectiveDates, key, () => achEffectiveDate(createdAt, service));
  }

  /** estimated_settlement_at: the creation time when open, else the next opening (the same for the whole hour). */
  estimatedSettlement(createdAt: Date): Date {
    const opening = memo(this.settlements, hourOf(createdAt), () => {
      const settlement = estimatedSettlementAt(createdAt);
      return settlement.getTime() === createdAt.getTime() ? null : settlement;
    });
    return opening ?? createdAt;
  }

  bankDate(instant: Date): string {
    return memo(this.bankDates, hourOf(instant), () => bankDateOf(instant));
  }

  achScheduledSettlement(effectiveDate: string, service: "standard" | "sameday"): Date {
    return memo(this.scheduledSettlements, `${effectiveDate}${service}`, () => achScheduledSettlement(effectiveDate, service));
  }
}

function memo<K, V>(answers: Map<K, V>, key: K, compute: () => V): V {
  const known = answers.get(key);
  if (known !== undefined) return known;
  const value = compute();
  answers.set(key, value);
  return value;
}

function hourOf(instant: Date): number {
  return Math.floor(instant.getTime() / HOUR);
}
