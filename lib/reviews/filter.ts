import { caseStates, isReviewKind } from "./codes";
import type { QueueCursor, QueueFilter } from "./queue";

/** The queue's age filter: at least this many hours old. */
export const ageOptions = [
  { value: "", label: "Any age", hours: 0 },
  { value: "1d", label: "Over 1 day", hours: 24 },
  { value: "2d", label: "Over 2 days", hours: 48 },
  { value: "7d", label: "Over 7 days", hours: 168 },
  { value: "30d", label: "Over 30 days", hours: 720 },
] as const;

export const defaultQueueFilter: QueueFilter = { assignee: "any", kind: "any", minAgeHours: 0, state: "undecided" };

/**
 * The queue's filters from the URL (`assignee`, `kind`, `age`, `state`); an unknown value is named in `problems` and
 * that filter falls back to its default, so a bad link still shows a queue.
 */
export function queueFilterFrom(query: Record<string, string | string[] | undefined>): { filter: QueueFilter; problems: string[] } {
  const problems: string[] = [];
  const one = (name: string) => {
    const value = query[name];
    if (Array.isArray(value)) {
      problems.push(`${name}: given more than once`);
      return undefined;
    }
    return value === "" ? undefined : value;
  };
  const filter = { ...defaultQueueFilter };
  const assignee = one("assignee");
  if (assignee === "mine" || assignee === "unassigned" || assignee === "any") filter.assignee = assignee;
  else if (assignee !== undefined) problems.push("assignee: expected mine, unassigned or any");
  const kind = one("kind");
  if (kind === "any" || isReviewKind(kind)) filter.kind = kind;
  else if (kind !== undefined) problems.push("kind: expected person_application, business_application or any");
  const age = one("age");
  const ageOption = ageOptions.find((option) => option.value === age);
  if (ageOption) filter.minAgeHours = ageOption.hours;
  else if (age !== undefined)
    problems.push(
      `age: expected one of ${ageOptions
        .slice(1)
        .map((option) => option.value)
        .join(", ")}`,
    );
  const state = one("state");
  if (state === "undecided" || state === "any" || (caseStates as readonly string[]).includes(state ?? ""))
    filter.state = state as QueueFilter["state"];
  else if (state !== undefined) problems.push(`state: expected undecided, ${caseStates.join(", ")} or any`);
  return { filter, problems };
}

/** A cursor in the URL: `<created, µs since the epoch, or "none">.<application id>`, readable and comma-free for `prev_cursors`. */
export function queueCursorText(cursor: QueueCursor): string {
  return `${cursor.createdMicros ?? "none"}.${cursor.id}`;
}

const cursorPattern = /^(-?\d{1,17}|none)\.([A-Za-z0-9_-]{1,100})$/;

/** The cursor `page_cursor` names, or a problem saying it is not one (the queue then starts from its oldest row). */
export function queueCursorFrom(value: string | string[] | undefined): { cursor?: QueueCursor; problem?: string } {
  if (value === undefined || value === "") return {};
  const match = typeof value === "string" ? cursorPattern.exec(value) : null;
  if (!match) return { problem: "page_cursor: not a page of this queue (showing its first page)" };
  return { cursor: { createdMicros: match[1] === "none" ? null : match[1]!, id: match[2]! } };
}
