import Link from "next/link";
import { formatAmount, formatCalendarDate } from "@/lib/format";
import type { DayVolume, KindVolume } from "@/lib/home/attention-today";
import { resourceRoutes } from "@/lib/resources/routes";

/** Cents as an amount in words of money: 123456 → "$1,234.56", several currencies joined ("$10.00 + €2.00"). */
function money(cents: Record<string, number>): string {
  const parts = Object.entries(cents)
    .sort(([a], [b]) => (a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)))
    .map(([currency, value]) => {
      const whole = Math.trunc(Math.abs(value) / 100);
      return formatAmount(`${value < 0 ? "-" : ""}${whole}.${String(Math.abs(value) % 100).padStart(2, "0")}`, currency);
    });
  return parts.length ? parts.join(" + ") : "$0.00";
}

const dayWords = (day: string) => formatCalendarDate(day).replace(/, \d{4}$/, "");

/** One row of bars, each a link to its day's list; heights relative to the row's largest value. */
function Bars({
  days,
  value,
  words,
  kind,
}: {
  days: DayVolume[];
  value: (day: DayVolume) => number;
  words: (day: DayVolume) => string;
  kind: string;
}) {
  const largest = Math.max(1, ...days.map(value));
  return (
    <ol className="flex h-14 items-end gap-0.5" aria-label={kind}>
      {days.map((day) => (
        <li key={day.day} className="flex h-full flex-1 items-end">
          <Link
            href={day.href}
            aria-label={`${dayWords(day.day)}: ${words(day)}`}
            title={`${dayWords(day.day)}: ${words(day)}`}
            className="flex h-full w-full items-end rounded-sm hover:bg-surface-2"
          >
            <span
              className="block w-full rounded-sm bg-sky-600 dark:bg-sky-400"
              style={{ height: `${Math.max(value(day) > 0 ? 4 : 1, (value(day) / largest) * 100)}%` }}
            />
          </Link>
        </li>
      ))}
    </ol>
  );
}

/**
 * Fourteen days of money movements per kind, by creation day in the staff member's zone: today against yesterday in
 * figures, then bars of how many and how much per day, each a link to that day's list.
 */
export function VolumeTrend({ volumes }: { volumes: KindVolume[] }) {
  return (
    <div className="grid gap-3 lg:grid-cols-3" data-testid="volume-trend">
      {volumes.map((volume) => {
        const title = resourceRoutes[volume.resource].title;
        const [yesterday, today] = volume.days.slice(-2) as [DayVolume, DayVolume];
        const first = volume.days[0]!;
        return (
          <section
            key={volume.resource}
            aria-label={`${title}, last ${volume.days.length} days`}
            className="rounded-md border border-line bg-surface p-3"
            data-testid="volume-kind"
            data-resource={volume.resource}
          >
            <h4 className="text-sm font-semibold">{title}</h4>
            <p className="mt-1 text-sm">
              <Link href={today.href} className="link" data-testid="volume-today">
                Today {today.count.toLocaleString("en-US")} · {money(today.cents)}
              </Link>
            </p>
            <p className="text-xs text-muted">
              <Link href={yesterday.href} className="link" data-testid="volume-yesterday">
                Yesterday {yesterday.count.toLocaleString("en-US")} · {money(yesterday.cents)}
              </Link>
            </p>
            <p className="mt-2 text-xs text-muted">Created per day</p>
            <Bars
              days={volume.days}
              value={(day) => day.count}
              words={(day) => `${day.count.toLocaleString("en-US")} created`}
              kind={`${title} created per day`}
            />
            <p className="mt-2 text-xs text-muted">Amount per day</p>
            <Bars
              days={volume.days}
              value={(day) => Object.values(day.cents).reduce((sum, cents) => sum + cents, 0)}
              words={(day) => money(day.cents)}
              kind={`${title} amount per day`}
            />
            <p className="mt-1 flex justify-between text-[11px] text-muted">
              <span>{dayWords(first.day)}</span>
              <span>today</span>
            </p>
          </section>
        );
      })}
    </div>
  );
}
