import { statusTone, type Tone } from "@/lib/format";

/**
 * A status in the colour of its meaning; `tone` for statuses that are not the bank's (lib/format's `statusTone`). The
 * colours are `.status-badge[data-tone]` in app/globals.css: one class in each row's HTML, not a dozen utilities. The
 * bank's own code is the tooltip where the words differ from it.
 */
export function StatusBadge({ status, tone = statusTone(status) }: { status: string; tone?: Tone }) {
  return (
    <span data-status={status} data-tone={tone} title={status.includes("_") ? status : undefined} className="status-badge">
      {status.replaceAll("_", " ")}
    </span>
  );
}
