"use client";

import { formatCalendarDate, relativeTime } from "@/lib/format";
import type { DatePreset } from "@/lib/search/index-filters";
import { instantRangeWords } from "./created-words";

// What every list shows of the index's filters (chips, where the rows come from), apart from their form
// (index-filter-bar.tsx), which is loaded only when "More filters" opens it.

/** A date preset in words, for its chip and the form's choices. */
export const presetLabels: Record<DatePreset, string> = {
  today: "today",
  yesterday: "yesterday",
  last_7_days: "last 7 days",
  this_month: "this month",
  custom: "custom range",
};

/** The creation dates a list's URL asks for, in words ("last 7 days", "Nov 1, 2026 to Nov 5, 2026"); null for any time. */
export function createdWords(query: Record<string, string>): string | null {
  if (!query.created) return null;
  const preset = query.created as DatePreset;
  if (preset !== "custom") return presetLabels[preset] ?? query.created;
  const day = (value: string | undefined) => (value ? formatCalendarDate(value) : "…");
  return `${day(query.created_from)} to ${day(query.created_to)} (UTC)`;
}

/** The index filters set in the URL, as removable chips' words; times in the one format in `zone`, the staff member's. */
export function indexFilterChips(query: Record<string, string>, zone: string): Array<{ names: string[]; label: string }> {
  const chips: Array<{ names: string[]; label: string }> = [];
  if (query.amount_min || query.amount_max) {
    const label =
      query.amount_min && query.amount_max
        ? `amount ${query.amount_min} – ${query.amount_max}`
        : query.amount_min
          ? `amount ≥ ${query.amount_min}`
          : `amount ≤ ${query.amount_max}`;
    chips.push({ names: ["amount_min", "amount_max"], label });
  }
  if (query.statuses) chips.push({ names: ["statuses"], label: `status ${query.statuses.split(",").join(" or ")}` });
  const created = createdWords(query);
  if (created) chips.push({ names: ["created", "created_from", "created_to"], label: `created ${created}` });
  if (query.name) chips.push({ names: ["name"], label: `name “${query.name}”` });
  for (const [name, words] of [
    ["created_in", "created"],
    ["updated_in", "last changed"],
  ] as const) {
    if (query[name]) chips.push({ names: [name], label: `${words} ${instantRangeWords(query[name], zone)}` });
  }
  if (query.has_error) chips.push({ names: ["has_error"], label: query.has_error === "true" ? "has an error" : "has no error" });
  if (query.return_code) chips.push({ names: ["return_code"], label: `return code ${query.return_code}` });
  return chips;
}

/** What an index-served list says about itself: plainly where its rows come from and how fresh they are. */
export function IndexSourceNotice({ lastChange, complete, now }: { lastChange: string | null; complete: boolean; now: number }) {
  return (
    <p data-testid="index-source" className="mb-2 rounded border border-line bg-surface-2 px-2 py-1 text-xs text-muted">
      From the console&apos;s index, updated {lastChange ? relativeTime(lastChange, now) : "never"}
      {complete ? "" : " (the index has not walked this list in full yet: objects it has not seen are missing)"}. Remove the index filters for the
      bank&apos;s own answer.
    </p>
  );
}
