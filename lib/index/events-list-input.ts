import { z } from "zod";
import { eventNames } from "@/lib/contract/events";
import { isStorableInstant, storableInstantMessage } from "@/lib/contract/primitives";
import { environments, type Environment } from "@/lib/credentials/environments";
import { defaultPageSize, historyParameter, listStateFrom, pageSizes, type ListState } from "@/lib/resources/list-state";

/**
 * What became of a received notification: `pending` (not processed yet), `error` (waiting for another attempt after
 * the object could not be fetched), the processed outcome, or `dead_letter` (given up: refused, or not fetched within
 * the attempt bound; its error says why).
 */
export const eventOutcomes = ["pending", "error", "changed", "unchanged", "older", "gone", "dead_letter"] as const;
export type EventOutcome = (typeof eventOutcomes)[number];

/** Page sizes as on the bank lists. */
export const eventsPageSizes = { min: 1, max: Math.max(...pageSizes), default: defaultPageSize } as const;

/** `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` (what a date or datetime-local input sends), in UTC. */
const momentPattern = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2})?)?Z?$/;

/** The start of the day, minute or second a filter value names, and the start of the next one (both UTC). */
export function momentRange(value: string): { start: Date; end: Date } | undefined {
  const match = momentPattern.exec(value);
  if (!match) return undefined;
  const [, day, minute, second] = match;
  const iso = `${day}T${minute ?? "00:00"}${second ?? ":00"}Z`;
  const start = new Date(iso);
  // Year 0000 parses in JavaScript but is no year PostgreSQL keeps: refused like any other impossible date.
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 19) !== iso.slice(0, 19) || day!.startsWith("0000")) return undefined;
  const unitMs = second ? 1000 : minute ? 60_000 : 86_400_000;
  return { start, end: new Date(start.getTime() + unitMs) };
}

const moment = (field: string) =>
  z
    .string()
    .refine((value) => momentRange(value) !== undefined, `${field}: expected a UTC date (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM)`)
    // Both ends of the moment are sent to PostgreSQL: `to`'s end is the start of the next day, minute or second.
    .refine((value) => {
      const range = momentRange(value);
      return !range || (isStorableInstant(range.start) && isStorableInstant(range.end));
    }, `${field}: ${storableInstantMessage}`)
    .optional();

const cursor = (field: string) => z.string().regex(/^[1-9]\d{0,17}$/, `${field}: expected the id of an event`);

const oneOf = <T extends string>(field: string, values: readonly T[]) =>
  z.enum(values as [T, ...T[]], { message: `${field}: expected one of ${values.join(", ")}` }).optional();

/**
 * The events page's query string, shared by the page, its form and the CSV export. The paging parameters are the
 * bank lists' own (`page_size`, `page_cursor`, `prev_cursors`, lib/resources/list-state.ts), the cursor being the id
 * of the last event of the previous page.
 */
export const eventsQuery = z.strictObject(
  {
    environment: oneOf("environment", environments),
    event: oneOf("event", eventNames),
    object: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,128}$/, "object: expected an object id (letters, digits, _ and -)")
      .optional(),
    from: moment("from"),
    to: moment("to"),
    outcome: oneOf("outcome", eventOutcomes),
    page_size: z
      .string()
      .regex(/^\d+$/, "page_size: expected a whole number")
      .transform(Number)
      .refine(
        (size) => size >= eventsPageSizes.min && size <= eventsPageSizes.max,
        `page_size: expected ${eventsPageSizes.min} to ${eventsPageSizes.max}`,
      )
      .optional(),
    page_cursor: cursor("page_cursor").optional(),
    [historyParameter]: z.array(cursor(historyParameter)).optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown filter: ${issue.keys.join(", ")}` : undefined) },
);

export interface EventsFilter {
  environment: Environment;
  event?: string;
  /** The object's id, exactly. */
  object?: string;
  /** Inclusive bounds on when the event was first received: a date covers its whole day, a minute its whole minute. */
  from?: string;
  to?: string;
  outcome?: EventOutcome;
}

export interface EventsPage {
  filter: EventsFilter;
  pageSize: number;
  /** The id of the last event of the previous page; none on the first page. */
  after?: number;
  /** The URL's list state (filters, page size, cursor and the cursors walked through), for the pager's links. */
  state: ListState;
}

/**
 * Reads the page's query parameters; without an environment, the user's active one. On bad input the message names
 * the field, and the page shows it instead of rows (the export answers 400 with it).
 */
export function parseEventsQuery(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
  activeEnvironment: Environment,
): { ok: true; page: EventsPage } | { ok: false; error: string } {
  const state = listStateFrom(params);
  // A form sends every field, empty or not: an empty one is no filter.
  const given = Object.fromEntries(
    Object.entries(state.query)
      .filter(([, value]) => value.trim() !== "")
      .map(([name, value]) => [name, value.trim()]),
  );
  const parsed = eventsQuery.safeParse(state.history.length > 0 ? { ...given, [historyParameter]: state.history } : given);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "invalid filter" };
  const { environment = activeEnvironment, event, object, from, to, outcome, page_size: pageSize, page_cursor: after } = parsed.data;
  const filter: EventsFilter = { environment, event, object, from, to, outcome };
  if (from && to && momentRange(from)!.start >= momentRange(to)!.end) return { ok: false, error: "from: must not be after to" };
  // The state again, from what was read: the pager's links carry the filters as read, the environment included.
  const read = listStateFrom({ ...filterParameters(filter), page_size: given.page_size, page_cursor: after });
  return {
    ok: true,
    page: {
      filter,
      pageSize: pageSize ?? eventsPageSizes.default,
      after: after === undefined ? undefined : Number(after),
      state: { ...read, history: state.history },
    },
  };
}

/** The filter as query parameters (for the export link and the pager), in the order of the form. */
export function filterParameters(filter: EventsFilter): Record<string, string> {
  return Object.fromEntries(Object.entries(filter).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
