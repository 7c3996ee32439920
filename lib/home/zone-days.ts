/**
 * Calendar days in a time zone as UTC instants: Home's "today", "yesterday" and its 14-day trend are days in the
 * staff member's zone (lib/time-zone.ts), so a day runs from that zone's midnight to the next, 23 or 25 hours across
 * a daylight-saving change. Client-safe (Intl only).
 */

const formats = new Map<string, Intl.DateTimeFormat>();
function partsIn(instant: Date, zone: string) {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return parts as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in ms. */
function offsetMs(instant: Date, zone: string): number {
  const parts = partsIn(instant, zone);
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant the day holding `instant` began in `zone` (its local midnight). */
export function dayStartIn(instant: Date, zone: string): Date {
  const { year, month, day } = partsIn(instant, zone);
  const midnightAsUtc = Date.UTC(year, month - 1, day);
  // The offset at midnight may differ from the offset now (a daylight-saving change that day): settle it twice.
  const first = midnightAsUtc - offsetMs(new Date(midnightAsUtc), zone);
  return new Date(midnightAsUtc - offsetMs(new Date(first), zone));
}

export interface ZoneDay {
  /** The calendar date in the zone, YYYY-MM-DD. */
  day: string;
  /** Its first instant (inclusive) and the next day's (exclusive). */
  from: Date;
  before: Date;
}

const hours = (count: number) => count * 3_600_000;

function dayAt(instant: Date, zone: string): ZoneDay {
  const from = dayStartIn(instant, zone);
  const { year, month, day } = partsIn(from, zone);
  const date = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  // A day is 23 to 25 hours long: 36 hours after its start is always within the next one.
  return { day: date, from, before: dayStartIn(new Date(from.getTime() + hours(36)), zone) };
}

/** The `count` days up to and including the day of `now` in `zone`, oldest first (the last one is today). */
export function daysEndingAt(now: Date, zone: string, count: number): ZoneDay[] {
  const days = [dayAt(now, zone)];
  while (days.length < count) days.unshift(dayAt(new Date(days[0]!.from.getTime() - hours(12)), zone));
  return days;
}
