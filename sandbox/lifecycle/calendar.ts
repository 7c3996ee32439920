/**
 * The sandbox bank's business calendar: the ONE place that defines when the bank is open.
 *
 * - Time zone: America/New_York (the bank's wall clock; daylight saving time follows the zone's rules).
 * - Operating hours: 08:00 (inclusive) to 18:00 (exclusive), local time, on business days.
 * - Business days: Monday to Friday, except bank holidays.
 * - Bank holidays: the eleven US federal holidays, computed by rule for any year, observed as the Federal Reserve
 *   Banks observe them (the calendar ACH and FedNow settle on): a holiday falling on a Sunday is observed on the
 *   following Monday; a holiday falling on a Saturday is not moved (the Federal Reserve is open the Friday before).
 *
 * - ACH effective date: same-day entries created before 16:00 on a business day take effect that day; every other
 *   entry takes effect on the next business day. Scheduled settlement on the effective date: 08:30 for standard
 *   entries, 17:00 for same-day entries (the Federal Reserve's settlement windows, simplified to one each).
 *
 * Calendar dates are `YYYY-MM-DD` strings in the bank's time zone; instants are `Date`s.
 */
export const bankCalendar = {
  timeZone: "America/New_York",
  opensAtHour: 8,
  closesAtHour: 18,
  sameDayAchCutoffHour: 16,
  achSettlementTime: { standard: [8, 30], sameday: [17, 0] },
} as const;

export interface BankHoliday {
  /** The date the bank is closed, YYYY-MM-DD. */
  date: string;
  name: string;
}

const DAY_MS = 86_400_000;
const SUNDAY = 0;
const MONDAY = 1;
const THURSDAY = 4;
const SATURDAY = 6;

const zoneFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: bankCalendar.timeZone,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The bank's wall-clock reading at an instant. */
function wallClockAt(instant: Date): WallClock {
  const parts: Record<string, number> = {};
  for (const part of zoneFormat.formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const { year, month, day, hour, minute, second } = parts as unknown as WallClock;
  return { year, month, day, hour, minute, second };
}

function formatDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function parseDate(date: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`expected a date YYYY-MM-DD, got "${date}"`);
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    throw new Error(`not a calendar date: "${date}"`);
  }
  return parsed;
}

/** The calendar date (in the bank's time zone) of an instant. */
export function bankDateOf(instant: Date): string {
  const clock = wallClockAt(instant);
  return formatDate(clock.year, clock.month, clock.day);
}

/** The date `days` calendar days after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return new Date(parseDate(date).getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

function weekdayOf(date: string): number {
  return parseDate(date).getUTCDay();
}

/** The n-th (1-based) given weekday of a month, or the last one when n is -1. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  if (n === -1) {
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const lastWeekday = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
    return formatDate(year, month, lastDay - ((lastWeekday - weekday + 7) % 7));
  }
  const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return formatDate(year, month, 1 + ((weekday - firstWeekday + 7) % 7) + (n - 1) * 7);
}

/** A fixed-date holiday as the Federal Reserve observes it: Sunday moves to Monday, Saturday is not observed. */
function observedFixed(year: number, month: number, day: number): string | undefined {
  const date = formatDate(year, month, day);
  const weekday = weekdayOf(date);
  if (weekday === SATURDAY) return undefined;
  return weekday === SUNDAY ? addDays(date, 1) : date;
}

const holidayCache = new Map<number, BankHoliday[]>();

/** The days the bank is closed for a holiday in a given year, in date order. */
export function bankHolidays(year: number): BankHoliday[] {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const candidates: Array<[string, string | undefined]> = [
    ["New Year's Day", observedFixed(year, 1, 1)],
    ["Birthday of Martin Luther King, Jr.", nthWeekday(year, 1, MONDAY, 3)],
    ["Washington's Birthday (Presidents Day)", nthWeekday(year, 2, MONDAY, 3)],
    ["Memorial Day", nthWeekday(year, 5, MONDAY, -1)],
    ["Juneteenth National Independence Day", year >= 2021 ? observedFixed(year, 6, 19) : undefined],
    ["Independence Day", observedFixed(year, 7, 4)],
    ["Labor Day", nthWeekday(year, 9, MONDAY, 1)],
    ["Columbus Day", nthWeekday(year, 10, MONDAY, 2)],
    ["Veterans Day", observedFixed(year, 11, 11)],
    ["Thanksgiving Day", nthWeekday(year, 11, THURSDAY, 4)],
    ["Christmas Day", observedFixed(year, 12, 25)],
  ];
  const holidays = candidates
    .filter((candidate): candidate is [string, string] => candidate[1] !== undefined)
    .map(([name, date]) => ({ date, name }))
    .sort((a, b) => a.date.localeCompare(b.date));
  holidayCache.set(year, holidays);
  return holidays;
}

export function isBankHoliday(date: string): boolean {
  const year = parseDate(date).getUTCFullYear();
  return bankHolidays(year).some((holiday) => holiday.date === date);
}

/** True on Monday to Friday unless a bank holiday. A `Date` is read as its calendar date in the bank's time zone. */
export function isBusinessDay(date: string | Date): boolean {
  const day = typeof date === "string" ? date : bankDateOf(date);
  const weekday = weekdayOf(day);
  return weekday !== SATURDAY && weekday !== SUNDAY && !isBankHoliday(day);
}

/** The first business day strictly after `date`. */
export function nextBusinessDay(date: string): string {
  let day = addDays(date, 1);
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/** `date` itself when a business day, else the next one. */
export function businessDayOnOrAfter(date: string): string {
  return isBusinessDay(date) ? date : nextBusinessDay(date);
}

/** The instant the bank's wall clock reads `hour`:`minute` on `date`. */
export function bankTimeOn(date: string, hour: number, minute = 0): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const asIfUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The zone offset at the guess equals the offset at the answer except within an hour of a DST switch, which
  // happens at 02:00 local: far from the bank's opening and closing hours.
  const clock = wallClockAt(new Date(asIfUtc));
  const offset = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - asIfUtc;
  return new Date(asIfUtc - offset);
}

/** The instant the bank opens on a business day. */
export function openingOf(date: string): Date {
  return bankTimeOn(date, bankCalendar.opensAtHour);
}

/** The instant the bank closes on a business day. */
export function closingOf(date: string): Date {
  return bankTimeOn(date, bankCalendar.closesAtHour);
}

/** True when `instant` falls on a business day between opening (inclusive) and closing (exclusive). */
export function isWithinOperatingHours(instant: Date): boolean {
  const date = bankDateOf(instant);
  if (!isBusinessDay(date)) return false;
  return instant >= openingOf(date) && instant < closingOf(date);
}

/** The next time the bank opens at or after `instant` (today's opening when before it on a business day). */
export function nextOpening(instant: Date): Date {
  const today = bankDateOf(instant);
  if (isBusinessDay(today) && instant <= openingOf(today)) return openingOf(today);
  return openingOf(nextBusinessDay(today));
}

/**
 * The spec's `estimated_settlement_at`: the given time when the bank is open, else the opening of the next banking
 * business day (the next opening: today's when a business day has not opened yet).
 */
export function estimatedSettlementAt(createdAt: Date): Date {
  return isWithinOperatingHours(createdAt) ? new Date(createdAt) : nextOpening(createdAt);
}

/** The ACH network's effective date of an entry created at `createdAt` with the given service. */
export function achEffectiveDate(createdAt: Date, service: "standard" | "sameday"): string {
  const today = bankDateOf(createdAt);
  const beforeCutoff = createdAt < bankTimeOn(today, bankCalendar.sameDayAchCutoffHour);
  return service === "sameday" && isBusinessDay(today) && beforeCutoff ? today : nextBusinessDay(today);
}

/** When an ACH entry with this effective date and service is scheduled to settle. */
export function achScheduledSettlement(effectiveDate: string, service: "standard" | "sameday"): Date {
  const [hour, minute] = bankCalendar.achSettlementTime[service];
  return bankTimeOn(effectiveDate, hour, minute);
}
