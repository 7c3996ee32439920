import { z } from "zod";
import { isStorableText, unstorableTextMessage } from "@/lib/contract/json-text";
import { isCalendarDate } from "@/lib/contract/primitives";
import type { AuditFilter } from "./trail";

// Dates before year 1 and text PostgreSQL cannot store (NUL, unpaired surrogates) are refused here, as a 400 naming
// the field, never as a 500 from the database.
const day = (field: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field}: expected a date YYYY-MM-DD`)
    .refine(isCalendarDate, `${field}: not a calendar date (years 0001 to 9999)`)
    .optional();

const text = (field: string) =>
  z
    .string()
    .trim()
    .max(200, `${field}: at most 200 characters`)
    .refine(isStorableText, `${field}: ${unstorableTextMessage}`)
    .optional()
    .transform((value) => value || undefined);

/** The audit page's and export's query string: the URL is the source of truth for the filters. */
export const auditQuery = z.object({
  actor: text("actor"),
  action: text("action"),
  target: text("target"),
  from: day("from"),
  to: day("to"),
  searches: z.literal("hidden", { error: 'searches: expected "hidden" (or nothing, to show them)' }).optional(),
  after: z.coerce
    .number({ message: "after: expected a record id" })
    .int("after: expected a record id")
    .positive("after: expected a record id")
    .max(Number.MAX_SAFE_INTEGER, "after: expected a record id")
    .optional(),
});

export type AuditQuery = z.infer<typeof auditQuery>;

/** Parses query parameters (only the first value of a repeated one); on bad input, the message names the field. */
export function parseAuditQuery(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): { ok: true; filter: AuditFilter; after?: number } | { ok: false; error: string } {
  const entries =
    params instanceof URLSearchParams
      ? [...params.keys()].map((key) => [key, params.get(key)] as const)
      : Object.entries(params).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value] as const);
  const raw = Object.fromEntries(entries.filter(([, value]) => value !== undefined && value !== ""));
  const parsed = auditQuery.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "invalid filter" };
  const { after, ...filter } = parsed.data;
  if (filter.from && filter.to && filter.from > filter.to) return { ok: false, error: "from: must not be after to" };
  return { ok: true, filter, after };
}
