import { z } from "zod";

/**
 * Request bodies of the sandbox's control API (docs/sandbox-control.md) that the sandbox bank and the console's
 * sandbox routes both check: one schema, so the console refuses exactly what the bank would, with the bank's words.
 */

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

/** `*`, or `<METHOD> <path>` where METHOD may be `*` and a path segment `*` stands for any one segment. */
const matchPattern = /^(?:\*|(?:\*|GET|POST|PUT|PATCH|DELETE) \/[A-Za-z0-9._~*/-]*)$/;
/** Paths no fault touches: the control API itself (a test must always be able to remove a fault) and the public ones. */
export const isNeverFaulted = (path: string) => path === "/health" || path === "/openapi.json" || path === "/sandbox" || path.startsWith("/sandbox/");

const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

export const faultBody = z
  .strictObject({
    match: z
      .string({ error: "match must be a string" })
      .regex(matchPattern, "match must be `*` or `<METHOD> <path>` (such as `GET /ach` or `PATCH /network_transfer/*`)")
      .refine((match) => !isNeverFaulted(match.slice(match.indexOf(" ") + 1)), "match: /sandbox/..., /health and /openapi.json are never faulted")
      .optional(),
    webhooks: z.enum(["delay", "drop", "duplicate"], { error: "webhooks must be delay, drop or duplicate" }).optional(),
    status: z.literal([429, 500, 503], { error: "status must be 429, 500 or 503" }).optional(),
    retry_after: whole("retry_after", 0, 86_400).optional(),
    latency_ms: whole("latency_ms", 1, 60_000).optional(),
    drop: z.boolean({ error: "drop must be true or false" }).optional(),
    delay_ms: whole("delay_ms", 1, 3_600_000).optional(),
    share: z.number({ error: "share must be a number" }).min(0, "share must be between 0 and 1").max(1, "share must be between 0 and 1").optional(),
    seed: z.string({ error: "seed must be a string" }).min(1, "seed must not be empty").max(100, "seed must be at most 100 characters").optional(),
    times: whole("times", 1, 1_000_000).optional(),
    expires_in: z
      .string({ error: "expires_in must be a string" })
      .superRefine((text, issues) => {
        const parsed = parseIsoDuration(text);
        if ("problem" in parsed) issues.addIssue({ code: "custom", message: `expires_in: ${parsed.problem}` });
      })
      .optional(),
  })
  .superRefine((body, issues) => {
    const problem = (message: string) => issues.addIssue({ code: "custom", message });
    if (body.match === undefined && body.webhooks === undefined) return problem("match or webhooks is required");
    if (body.match !== undefined && body.webhooks !== undefined) return problem("match and webhooks cannot be combined: one fault each");
    if (body.webhooks !== undefined) {
      for (const field of ["status", "retry_after", "latency_ms", "drop"] as const) {
        if (body[field] !== undefined) problem(`${field} is for match faults; a webhooks fault takes delay_ms, share, seed, times, expires_in`);
      }
      if (body.webhooks === "delay" && body.delay_ms === undefined) problem("delay_ms is required with webhooks: delay");
      if (body.webhooks !== "delay" && body.delay_ms !== undefined) problem("delay_ms is only for webhooks: delay");
      return;
    }
    if (body.delay_ms !== undefined) problem("delay_ms is for webhooks: delay; a match fault takes latency_ms");
    if (body.status === undefined && body.latency_ms === undefined && !body.drop) problem("status, latency_ms or drop is required with match");
    if (body.status !== undefined && body.drop) problem("drop cannot be combined with status: a dropped connection has no status");
    if (body.retry_after !== undefined && body.status === undefined) problem("retry_after needs status");
  });
export type FaultBody = z.infer<typeof faultBody>;
