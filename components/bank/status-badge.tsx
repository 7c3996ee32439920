import { statusTone, type Tone } from "@/lib/format";

const toneClasses: Record<Tone, string> = {
  success: "bg-emerald-50 text-emerald-800 ring-emerald-600/25 dark:bg-emerald-950 dark:text-emerald-300 dark:ring-emerald-400/30",
  info: "bg-sky-50 text-sky-800 ring-sky-600/25 dark:bg-sky-950 dark:text-sky-300 dark:ring-sky-400/30",
  warning: "bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-400/30",
  danger: "bg-red-50 text-red-800 ring-red-600/25 dark:bg-red-950 dark:text-red-300 dark:ring-red-400/30",
  neutral: "bg-surface-2 text-muted ring-line-strong",
};

/** A status in the colour of its meaning; `tone` for statuses that are not the bank's (lib/format's `statusTone`). */
export function StatusBadge({ status, tone = statusTone(status) }: { status: string; tone?: Tone }) {
  return (
    <span data-status={status} className={`inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${toneClasses[tone]}`}>
      {status.replaceAll("_", " ")}
    </span>
  );
}
