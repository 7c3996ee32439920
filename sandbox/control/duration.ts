/**
 * ISO 8601 durations of fixed length: weeks, days, hours, minutes and seconds (`P1W`, `P1D`, `PT1H30M`, `PT0.5S`).
 * A day is 24 hours. Years and months are refused: their length depends on where they start.
 */
const durationPattern = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d{1,3})?)S)?)?$/;
const unitMs = { week: 604_800_000, day: 86_400_000, hour: 3_600_000, minute: 60_000, second: 1000 };

/** The duration in milliseconds (more than zero), or what is wrong with the text (a sentence that can follow the field's name). */
export function parseIsoDuration(text: string): { ms: number } | { problem: string } {
  const expected = `expected an ISO 8601 duration such as PT1H or P1D (got ${JSON.stringify(text)})`;
  const positive = `must be a positive duration (got ${JSON.stringify(text)})`;
  if (text.startsWith("-")) return { problem: positive };
  if (/^P[^T]*[YM]/.test(text)) {
    return { problem: `years and months have no fixed length; give weeks or days instead, e.g. P30D (got ${JSON.stringify(text)})` };
  }
  const match = durationPattern.exec(text);
  // "P" and "PT" alone match the pattern with no part at all.
  if (!match || match.slice(1).every((part) => part === undefined) || text.endsWith("T")) return { problem: expected };
  const [weeks, days, hours, minutes, seconds] = match.slice(1).map((part) => Number((part ?? "0").replace(",", ".")));
  const ms = Math.round(weeks! * unitMs.week + days! * unitMs.day + hours! * unitMs.hour + minutes! * unitMs.minute + seconds! * unitMs.second);
  return ms > 0 ? { ms } : { problem: positive };
}
