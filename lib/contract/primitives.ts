import { z } from "zod";
import { isStorableJson, isStorableText, maxJsonDepth, unstorableTextMessage } from "./json-text";
import { idPrefixes, type IdKind } from "./names";

export { idPrefixes, type IdKind };

/** Timestamps are exactly `YYYY-MM-DDTHH:MM:SSZ` (UTC, no fractional seconds). */
export const timestampPattern = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$/;
/** Dates are exactly `YYYY-MM-DD`. */
export const datePattern = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
/** Money is a string with exactly two decimals; it never passes through a float. */
export const moneyPattern = /^[0-9]+[.][0-9][0-9]$/;
/** userdata may hold at most this many bytes once serialized as JSON. */
export const userdataMaxBytes = 1024;

const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * True when `value` is `YYYY-MM-DD` and names a real calendar day (2023-02-30 and 0000-01-01 are not one). Arithmetic rather than a
 * Date round trip: every date of every bank answer is checked, and this is several times cheaper.
 */
export function isCalendarDate(value: string): boolean {
  if (!datePattern.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  // Year 0000 is no year of the calendar PostgreSQL keeps (1 BC precedes AD 1): refused, never a 500 at the database.
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : daysInMonth[month - 1]!);
}

const firstInstant = Date.parse("0001-01-01T00:00:00Z");
const pastLastInstant = Date.parse("9999-12-31T00:00:00Z") + 86_400_000;

/**
 * True when an instant (a filter's bound, already converted to UTC) lies in years 0001 to 9999: what the console sends
 * PostgreSQL as ISO text. `toISOString` writes year 0 as `0000` and year 10000 as `+010000`, and PostgreSQL reads
 * neither, so a bound outside (a day after 9999-12-31, a cursor of year 0) is refused by its field, never a 500.
 */
export function isStorableInstant(instant: Date): boolean {
  const time = instant.getTime();
  return time >= firstInstant && time < pastLastInstant;
}

export const storableInstantMessage = "outside the dates the console keeps (0001-01-01 to 9999-12-30)";

export const timestamp = z.string().regex(timestampPattern, "expected a timestamp YYYY-MM-DDTHH:MM:SSZ");
export const date = z.string().regex(datePattern, "expected a date YYYY-MM-DD").refine(isCalendarDate, "expected a real calendar date YYYY-MM-DD");
export const money = z.string().regex(moneyPattern, "expected an amount with two decimals such as 12.50");

/** An id: its type prefix followed by an opaque string of letters, digits, `_` or `-`. */
export const idOf = (kind: IdKind) =>
  z.string().regex(new RegExp(`^${idPrefixes[kind]}[A-Za-z0-9_-]{1,64}$`), `expected an id starting with ${idPrefixes[kind]}`);

/**
 * An opaque id given as a query filter, cursor or path parameter: checked for sanity, not for prefix. It is compared
 * with PostgreSQL text, which cannot hold every JS string: those are refused here rather than failing in the query.
 */
export const opaqueId = z.string().min(1, "must not be empty").max(100, "at most 100 characters").refine(isStorableText, unstorableTextMessage);

function utf8Length(value: string): number {
  return new TextEncoder().encode(value).length;
}

/** Arbitrary object the API user attaches; at most 1 KB once serialized. */
export const userdataInput = z
  .record(z.string(), z.unknown(), {
    error: (issue) => (issue.input === undefined ? "userdata is required" : "userdata must be a JSON object"),
  })
  // Checked before the size: JSON.stringify recurses, and PostgreSQL's jsonb refuses NUL and lone surrogates.
  .refine((value) => isStorableJson(value), {
    message: `userdata must nest at most ${maxJsonDepth} levels and its keys and strings ${unstorableTextMessage}`,
    abort: true,
  })
  .refine((value) => utf8Length(JSON.stringify(value)) <= userdataMaxBytes, {
    message: `userdata must be at most ${userdataMaxBytes} bytes once serialized as JSON`,
  });
/** userdata as returned: an object or null. */
export const userdata = z.record(z.string(), z.unknown()).nullable();
/** Arbitrary object the bank attaches, or null. */
export const bankdata = z.record(z.string(), z.unknown()).nullable();

/** Printable ASCII of at most `max` characters (the spec's name limits are in ASCII characters). */
export const asciiText = (max: number) =>
  z
    .string()
    .max(max, `at most ${max} characters`)
    .regex(/^[\x20-\x7e]*$/, "only printable ASCII characters");

/**
 * One address shape for every address of the API: the spec lists these sub-fields (street_line_2 nullable) and
 * shows no others.
 */
export const address = z.looseObject({
  street_line_1: z.string(),
  street_line_2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  postal_code: z.string(),
  country: z.string().length(2, "expected a two-letter ISO country code"),
});

export const errorBody = z.object({ error: z.string() }).meta({ id: "Error" });
export type ErrorBody = z.infer<typeof errorBody>;
