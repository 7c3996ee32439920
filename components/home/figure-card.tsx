import Link from "next/link";
import type { ReactNode } from "react";

/**
 * One figure of Home, linked to the list that explains it (the list's filters give exactly this count). `compare`
 * adds a second linked figure under it (yesterday's). A figure above zero that needs someone reads in red.
 */
export function FigureCard({
  count,
  label,
  href,
  alarming = true,
  compare,
  testId = "home-figure",
}: {
  count: number;
  label: string;
  href: string;
  /** Whether a count above zero needs someone (red); false for neutral figures. */
  alarming?: boolean;
  compare?: { label: string; count: number; href: string };
  testId?: string;
}) {
  return (
    <li className="flex flex-col rounded-md border border-line bg-surface" data-testid={testId} data-label={label}>
      <Link href={href} className="block flex-1 rounded-md p-2.5 hover:bg-surface-2 sm:p-3" data-testid="home-figure-link">
        <span
          data-testid="home-figure-count"
          className={`block text-xl font-semibold tabular-nums sm:text-2xl ${alarming && count > 0 ? "text-red-700 dark:text-red-300" : ""}`}
        >
          {count.toLocaleString("en-US")}
        </span>
        <span className="block text-sm text-muted">{label}</span>
      </Link>
      {compare ? (
        <Link
          href={compare.href}
          className="border-t border-line px-2.5 py-1 text-xs text-muted hover:bg-surface-2 sm:px-3"
          data-testid="home-figure-compare"
        >
          {compare.label}: <span className="tabular-nums">{compare.count.toLocaleString("en-US")}</span>
        </Link>
      ) : null}
    </li>
  );
}

/** A titled group of figures. */
export function FigureGroup({ title, id, note, children }: { title: string; id: string; note?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mb-5">
      <h3 id={id} className="mb-1.5 text-sm font-semibold">
        {title}
      </h3>
      <ul className="grid grid-cols-2 gap-2 xl:grid-cols-4">{children}</ul>
      {note ? <p className="mt-1 text-xs text-muted">{note}</p> : null}
    </section>
  );
}

/** A part of Home that could not be read, in words (the rest still shows). */
export function ReadError({ what, error }: { what: string; error: string }) {
  return (
    <p role="status" className="mb-5 text-sm text-red-700 dark:text-red-300">
      Could not read {what}: {error}
    </p>
  );
}
