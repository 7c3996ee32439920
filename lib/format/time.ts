/**
 * Times, one way everywhere (docs/console-pages.md, "Times"): "Nov 17, 14:02" in the staff member's time zone (the year
 * added when it is not the current one), the relative form beside it or in the tooltip, and the exact second with the
 * zone on hover. Pure and client-safe.
 */

/** The time zone everything is shown in when none is known (the server's first render before the browser said). */
export const defaultTimeZone = "UTC";

/** Whether `zone` is an IANA time zone this runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== "string" || zone === "" || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/*
 * One formatter per zone, made once: building an Intl.DateTimeFormat with a time zone costs far more than formatting
 * with it (a list's 50 timestamps spent ~40 ms building them in the browser's profile, docs/benchmarks.md, pages).
 * The parts of every style are read from one `formatToParts` call.
 */
type TimeParts = Record<"month" | "day" | "year" | "hour" | "minute" | "second" | "zoneName", string>;
const formatters = new Map<string, { named: Intl.DateTimeFormat; numbered: Intl.DateTimeFormat }>();
const timeOptions = { year: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" } as const;

function formattersFor(zone: string) {
  let found = formatters.get(zone);
  if (!found) {
    found = {
      named: new Intl.DateTimeFormat("en-US", { ...timeOptions, timeZone: zone, month: "short", timeZoneName: "short" }),
      numbered: new Intl.DateTimeFormat("en-US", { timeZone: zone, month: "numeric" }),
    };
    formatters.set(zone, found);
  }
  return found;
}

const isUtc = (zone: string) => zone === "UTC" || zone === "Etc/UTC";

function partsOf(date: Date, zone: string): TimeParts {
  // On the server, UTC (the zone pages are drawn in unless the staff member picks another) is read off the date's own UTC
  // form, "Tue, 17 Nov 2026 14:02:09 GMT", whose format the language fixes: the formatter's parts (a test compares them)
  // at a third of its cost, which a list's 50 rows paid about 100 times per render. Years 1000-9999 only, as Intl
  // writes the others differently. Not in the browser: the build drops this branch there, as its bytes would put the
  // webhooks list over its first-load budget (docs/benchmarks.md, pages).
  if (typeof window === "undefined" && isUtc(zone)) {
    const [, day, month, year, time] = date.toUTCString().split(" ") as [string, string, string, string, string];
    const [hour, minute, second] = time.split(":") as [string, string, string];
    if (/^[1-9]\d{3}$/.test(year)) return { month, day: String(Number(day)), year, hour, minute, second, zoneName: "UTC" };
  }
  const parts = {} as TimeParts;
  for (const part of formattersFor(zone).named.formatToParts(date)) {
    if (part.type === "timeZoneName") parts.zoneName = part.value;
    else if (part.type !== "literal") parts[part.type as keyof TimeParts] = part.value;
  }
  return parts;
}

/** The current year in `zone`, read once a minute (every timestamp on a page compares with it). */
const currentYears = new Map<string, { minute: number; year: string }>();
function currentYear(zone: string, now: number): string {
  const minute = Math.floor(now / 60_000);
  const known = currentYears.get(zone);
  if (known?.minute === minute) return known.year;
  const year = partsOf(new Date(now), zone).year;
  currentYears.set(zone, { minute, year });
  return year;
}

/**
 * "Nov 17, 14:02" in `zone`; "Nov 17, 2025, 14:02" when the year is not `now`'s year there. The input comes back
 * unchanged when it is not a time.
 */
export function formatDateTime(iso: string, zone: string = defaultTimeZone, now: number = Date.now()): string {
  return written(iso, zone, (year) => year !== currentYear(zone, now));
}

/**
 * A time inside a sentence the server writes (an error message, a refusal), where the reader's zone is not known: the
 * one format in UTC with the zone said after it, "Nov 17, 14:02 (UTC)" (the year added when not this year). Machine
 * fields beside the message (`since`, `asOf`) stay ISO.
 */
export function timeInMessage(iso: string, now: number = Date.now()): string {
  const written = formatDateTime(iso, "UTC", now);
  return written === iso ? iso : `${written} (UTC)`;
}

/**
 * The one format with the year always written, "Nov 17, 2026, 14:02": for a document read later (the case record),
 * where the year its reader is in says nothing about the year of a time in it.
 */
export function formatDocumentTime(iso: string, zone: string = defaultTimeZone): string {
  return written(iso, zone, () => true);
}

function written(iso: string, zone: string, withYear: (year: string) => boolean): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = partsOf(date, zone);
  return `${parts.month} ${parts.day}${withYear(parts.year) ? `, ${parts.year}` : ""}, ${parts.hour}:${parts.minute}`;
}

/** The zone's short name at that moment: "UTC", "CET", "EST", or "GMT+5:30" where it has no abbreviation in English. */
export function zoneName(iso: string, zone: string = defaultTimeZone): string {
  if (isUtc(zone)) return "UTC";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return zone;
  return partsOf(date, zone).zoneName ?? zone;
}

/** The exact time for the tooltip: "2026-11-17 14:02:09 CET (Europe/Berlin)", "2026-11-17 14:02:09 UTC". */
export function exactTime(iso: string, zone: string = defaultTimeZone): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = partsOf(date, zone);
  const month = formattersFor(zone).numbered.format(date).padStart(2, "0");
  const name = isUtc(zone) ? "UTC" : (parts.zoneName ?? zone);
  return `${parts.year}-${month}-${parts.day.padStart(2, "0")} ${parts.hour}:${parts.minute}:${parts.second} ${name}${name === "UTC" || name === zone ? "" : ` (${zone})`}`;
}

/**
 * A chart's time axis in `zone`, one label per tick: as fine as the chart's step ("14:02:05" for steps under a minute,
 * "14:02" under a day, "Nov 17" for days), the day written before the time ("Nov 17, 23:00") when the ticks span more
 * than one day. A tick is read against its neighbours on the axis; the exact time of a bar belongs in its tooltip.
 */
export function axisTimes(isos: readonly string[], zone: string, stepMs: number): string[] {
  const parts = isos.map((iso) => partsOf(new Date(iso), zone));
  const day = (part: TimeParts) => `${part.month} ${part.day}`;
  const spansDays = new Set(parts.map(day)).size > 1;
  return parts.map((part, index) => {
    // Day-sized steps start at midnight UTC (lib/webhooks/delivery-buckets.ts): their day is UTC's in every zone.
    if (stepMs >= 24 * 3600_000) return day(partsOf(new Date(isos[index]!), "UTC"));
    const time = `${part.hour}:${part.minute}${stepMs < 60_000 ? `:${part.second}` : ""}`;
    return spansDays ? `${day(part)}, ${time}` : time;
  });
}

/**
 * Times written in any other way than the one format (`formatDateTime`: "Nov 17, 14:02", the year added when not this
 * year; the exact second only on hover): ISO 8601 ("2026-11-28T15:36:44Z", with milliseconds or an offset), a
 * database's "2026-11-28 15:36:44", times followed by "UTC", and bare dates ("2026-11-28": "Nov 28, 2026" instead).
 * For a test over a page's visible text (e2e/one-time-format.spec.ts walks every page with it). Not page text, so
 * exact forms may stay there: hover titles, `datetime` attributes, input values, and Raw JSON blocks (`pre`: the
 * bank's object as it came). A zone named without a time ("From (UTC)" on a filter read in UTC) is not a time, and a
 * chart's axis ticks (`axisTimes`) are a scale in the one zone, not flagged either.
 */
export function strayTimes(text: string): string[] {
  // One expression, so a date with its time is one finding, not also its time's.
  const stray =
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}| ?UTC)?)?\b|(?<![\d:])\d{1,2}:\d{2}(?::\d{2})? UTC\b/g;
  return text.match(stray) ?? [];
}

/** The whole line: "Nov 17, 14:02 · 6 days ago". */
export function formatTimestamp(iso: string, zone: string = defaultTimeZone, now: number = Date.now()): string {
  const absolute = formatDateTime(iso, zone, now);
  return absolute === iso ? iso : `${absolute} · ${relativeTime(iso, now)}`;
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
/** "3 minutes ago" by count and unit: a page shows the same few dozen, and each `format` call costs ~0.2 ms in a browser. */
const relativeWords = new Map<string, string>();

/** "3 minutes ago", "in 2 days". */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Number.isNaN(seconds)) return iso;
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === "second") {
      const count = Math.trunc(seconds / size);
      const key = `${count} ${unit}`;
      let words = relativeWords.get(key);
      if (words === undefined) relativeWords.set(key, (words = relative.format(count, unit)));
      return words;
    }
  }
  return iso;
}

/** "2026-11-23 14:05:09 UTC": the exact time, shown on hover. */
export function exactUtc(iso: string): string {
  return iso.replace("T", " ").replace("Z", " UTC");
}
