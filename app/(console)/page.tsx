import Link from "next/link";
import { LazyStatusChart } from "@/components/home/status-chart-loader";
import { RefreshOnChange } from "@/components/live/refresh-on-change";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { exactUtc, relativeTime } from "@/lib/format";
import { attentionItems, chartWindow, countLimit, homeIndexCounts, homeKinds, movementsByStatus } from "@/lib/home/overview";

export const metadata = { title: "Home" };

export default async function HomePage() {
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const counts = await homeIndexCounts(environment);
  const [items, movements] = await Promise.all([attentionItems(user, counts), movementsByStatus(user, counts)]);
  const fromBank = items.some((item) => item.source === "bank");
  const asOf = counts
    ? `${exactUtc(counts.asOf.replace(/\.\d+Z$/, "Z"))}${counts.lastChange ? `; last change seen ${relativeTime(counts.lastChange, Date.parse(counts.asOf))}` : ""}`
    : null;
  const statuses = [...new Set(movements.flatMap((movement) => Object.keys(movement.counts)))].sort();
  return (
    <>
      <PageHeader title="Home" description={`What needs attention now in the ${environment} environment.`} />
      <RefreshOnChange resources={homeKinds} />
      <section aria-labelledby="attention-title" className="mb-6">
        <h2 id="attention-title" className="mb-2 text-sm font-semibold">
          Needs attention
        </h2>
        <ul className="grid grid-cols-2 gap-2 xl:grid-cols-4">
          {items.map((item) => (
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
          {items.some((item) => item.source === "index") ? `Exact counts from the console's index of the bank, as of ${asOf}.` : null}
          {fromBank
            ? ` Counts read from the bank stop at ${countLimit} (shown as ${countLimit}+): the bank has no count endpoint, and the console's index has not walked those lists in full yet.`
            : null}
        </p>
      </section>
      <section aria-labelledby="movements-title" className="rounded-md border border-line bg-surface p-3">
        <h2 id="movements-title" className="mb-2 text-sm font-semibold">
          Money movements by status (
          {movements.every((movement) => movement.source === "index")
            ? "every one in the console's index"
            : `newest ${chartWindow} of each read from the bank`}
          )
        </h2>
        <LazyStatusChart data={movements} statuses={statuses} />
        <div className="relative mt-3 overflow-x-auto" tabIndex={0} role="region" aria-labelledby="movements-title">
          <table className="min-w-full text-sm" data-testid="movements-table">
            <caption className="sr-only">Money movements by status, as numbers</caption>
            <thead className="border-b border-line text-left text-[11px] tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="py-1 pr-3 font-semibold">
                  Kind
                </th>
                {statuses.map((status) => (
                  <th key={status} scope="col" className="py-1 pr-3 text-right font-semibold">
                    {status}
                  </th>
                ))}
                <th scope="col" className="py-1 text-right font-semibold">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {movements.map((movement) => (
                <tr key={movement.resource}>
                  <th scope="row" className="py-1 pr-3 text-left font-normal">
                    <Link href={movement.href} className="link">
                      {movement.resource}
                    </Link>
                    {movement.error ? <span className="ml-2 text-xs text-red-700 dark:text-red-300">could not read: {movement.error}</span> : null}
                  </th>
                  {statuses.map((status) => (
                    <td key={status} className="py-1 pr-3 text-right tabular-nums">
                      {movement.counts[status] ?? 0}
                    </td>
                  ))}
                  <td className="py-1 text-right tabular-nums">{movement.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
