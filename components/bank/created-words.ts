import { formatCalendarDate, formatDateTime } from "@/lib/format";

/**
 * The creation dates of a list in words, for the Created control's button and a filter's chip. Pure.
 */

/**
 * The bank's own creation filter (`from_date` inclusive, `to_date` exclusive, both UTC days, docs/sandbox-api.md) in
 * words: "from Nov 1, 2026 (UTC)", "before Nov 5, 2026 (UTC)", "on Nov 1, 2026 (UTC)" for one whole day, "Nov 1, 2026
 * to Nov 4, 2026 (UTC)" for several (the last day the range holds, as people count a range); null when neither is set.
 */
export function bankCreatedWords(from: string | undefined, to: string | undefined): string | null {
  if (!from && !to) return null;
  if (!to) return `from ${formatCalendarDate(from!)} (UTC)`;
  const lastDay = dayBefore(to);
  if (!from) return `before ${formatCalendarDate(to)} (UTC)`;
  // A value the bank would refuse (not a day) or an empty range is said as it is, for the bank's answer to explain.
  if (!lastDay || lastDay < from) return `from ${formatCalendarDate(from)}, before ${formatCalendarDate(to)} (UTC)`;
  if (lastDay === from) return `on ${formatCalendarDate(from)} (UTC)`;
  return `${formatCalendarDate(from)} to ${formatCalendarDate(lastDay)} (UTC)`;
}

/** The day before a "YYYY-MM-DD" day; null for anything else. */
function dayBefore(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const time = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day) return null;
  return new Date(time - 24 * 3600_000).toISOString().slice(0, 10);
}

/**
 * A range of instants (`created_in`, `updated_in`: "<from>/<before>", either end empty; Home's links use them for a
 * day in the staff member's zone) in the one time format in `zone`: "on Nov 28" for one whole day there, else
 * "from Nov 28, 05:00", "before Nov 29, 00:00", "from Nov 28, 05:00 until Nov 29, 00:00".
 */
export function instantRangeWords(range: string, zone: string, now: number = Date.now()): string {
  const [from = "", before = ""] = range.split("/");
  const at = (iso: string) => formatDateTime(iso, zone, now);
  const midnight = (written: string) => (written.endsWith(", 00:00") ? written.slice(0, -", 00:00".length) : null);
  if (from && before) {
    const [start, end] = [midnight(at(from)), midnight(at(before))];
    const oneDay = Date.parse(before) - Date.parse(from);
    // A day is 23 to 25 hours where the zone changes its clocks.
    if (start && end && oneDay >= 23 * 3600_000 && oneDay <= 25 * 3600_000) return `on ${start}`;
    return `from ${at(from)} until ${at(before)}`;
  }
  return from ? `from ${at(from)}` : `before ${at(before)}`;
}
