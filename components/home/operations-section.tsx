import Link from "next/link";
import { formatDateTime, relativeTime } from "@/lib/format";
import type { HomeOverview } from "@/lib/home/home-page";
import { countLimit } from "@/lib/home/overview";
import { resourceRoutes } from "@/lib/resources/routes";
import { FigureCard, FigureGroup, ReadError } from "./figure-card";
import { VolumeTrend } from "./volume-trend";

const hoursWords = (hours: number) => (hours === 1 ? "an hour" : `${hours} h`);

/** What operations watch: today's returns and errors against yesterday's, what is stuck, what is wrong now, volume. */
export function OperationsSection({ overview }: { overview: HomeOverview }) {
  const { outcomes, stuck, volumes, attention } = overview.operations;
  const { counts } = overview;
  const asOf = counts
    ? `${formatDateTime(counts.asOf, overview.zone)}${counts.lastChange ? `; last change seen ${relativeTime(counts.lastChange, Date.parse(counts.asOf))}` : ""}`
    : null;
  return (
    <section aria-labelledby="operations-title" className="mb-6" data-testid="home-operations">
      <h2 id="operations-title" className="mb-2 text-base font-semibold">
        Operations
      </h2>
      {outcomes.ok ? (
        <FigureGroup
          id="outcomes-title"
          title="Returned or failed today"
          note="By the day each transfer last changed (the bank's updated_at), in your time zone."
        >
          {outcomes.value.map((figure) => (
            <FigureCard key={figure.label} label={figure.label} {...figure.today} compare={{ label: "Yesterday", ...figure.yesterday }} />
          ))}
        </FigureGroup>
      ) : (
        <ReadError what="today's returns and errors" error={outcomes.error} />
      )}
      {stuck.ok ? (
        <FigureGroup
          id="stuck-title"
          title="Stuck longer than usual"
          note={
            <>
              Unchanged for longer than a state usually lasts:{" "}
              {stuck.value
                .map((figure) => `${resourceRoutes[figure.resource].title} ${figure.status} ${hoursWords(figure.hours)} (${figure.why})`)
                .join("; ")}
              .
            </>
          }
        >
          {stuck.value.map((figure) => (
            <FigureCard
              key={`${figure.resource}-${figure.status}`}
              label={`${resourceRoutes[figure.resource].title} ${figure.status} over ${hoursWords(figure.hours)}`}
              count={figure.count}
              href={figure.href}
            />
          ))}
        </FigureGroup>
      ) : (
        <ReadError what="stuck transfers" error={stuck.error} />
      )}
      <section aria-labelledby="attention-title" className="mb-5">
        <h3 id="attention-title" className="mb-1.5 text-sm font-semibold">
          Needs attention, whenever it happened
        </h3>
        <ul className="grid grid-cols-2 gap-2 xl:grid-cols-4">
          {attention.map((item) => (
            <li key={item.label}>
              <Link
                href={item.href}
                data-testid="attention-item"
                className="block h-full rounded-md border border-line bg-surface p-2.5 hover:border-line-strong hover:bg-surface-2 sm:p-3"
              >
                <span className={`block text-xl font-semibold tabular-nums sm:text-2xl ${item.count ? "text-red-700 dark:text-red-300" : ""}`}>
                  {item.count === null ? "?" : `${item.count.toLocaleString("en-US")}${item.more ? "+" : ""}`}
                </span>
                <span className="block text-sm text-muted">{item.label}</span>
                {item.error ? <span className="mt-1 block text-xs text-red-700 dark:text-red-300">Could not read: {item.error}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-1 text-xs text-muted" data-testid="attention-as-of">
          {attention.some((item) => item.source === "index") ? `Exact counts from the console's index of the bank, as of ${asOf}.` : null}
          {attention.some((item) => item.source === "bank")
            ? ` Counts read from the bank stop at ${countLimit} (shown as ${countLimit}+): the bank has no count endpoint, and the console's index has not walked those lists in full yet.`
            : null}
        </p>
      </section>
      <section aria-labelledby="volume-title">
        <h3 id="volume-title" className="mb-1.5 text-sm font-semibold">
          Volume, last {overview.days.length} days
        </h3>
        {volumes.ok ? <VolumeTrend volumes={volumes.value} /> : <ReadError what="the volume" error={volumes.error} />}
      </section>
    </section>
  );
}
