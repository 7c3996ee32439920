import Link from "next/link";
import { LazyStatusChart } from "@/components/home/status-chart-loader";
import { RefreshOnChange } from "@/components/live/refresh-on-change";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { attentionItems, chartWindow, countLimit, homeKinds, movementsByStatus } from "@/lib/home/overview";

export const metadata = { title: "Home · Bank console" };

export default async function HomePage() {
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const [items, movements] = await Promise.all([attentionItems(user), movementsByStatus(user)]);
  const statuses = [...new Set(movements.flatMap((movement) => Object.keys(movement.counts)))].sort();
  return (
    <>
      <PageHeader title="Home" description={`What needs attention now in the ${environment} environment.`} />
      <RefreshOnChange resources={homeKinds} />
      <section aria-labelledby="attention-title" className="mb-6">
        <h2 id="attention-title" className="mb-2 text-sm font-semibold">
          Needs attention
        </h2>
        <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-4">
          {items.map((item) => (
            <li key={item.label}>
              <Link href={item.href} data-testid="attention-item" className="block rounded-md border border-line bg-surface p-3 hover:border-line-strong hover:bg-surface-2">
                <span className={`block text-2xl font-semibold tabular-nums ${item.count ? "text-red-700 dark:text-red-300" : ""}`}>
                  {item.count === null ? "?" : `${item.count}${item.more ? "+" : ""}`}
                </span>
                <span className="block text-sm text-muted">{item.label}</span>
                {item.error ? <span className="mt-1 block text-xs text-red-700 dark:text-red-300">Could not read: {item.error}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-1 text-xs text-muted">Counts stop at {countLimit} (shown as {countLimit}+); the bank has no count endpoint.</p>
      </section>
      <section aria-labelledby="movements-title" className="rounded-md border border-line bg-surface p-3">
        <h2 id="movements-title" className="mb-2 text-sm font-semibold">
          Money movements by status (newest {chartWindow} of each)
        </h2>
        <LazyStatusChart data={movements} statuses={statuses} />
        <table className="mt-3 min-w-full text-sm" data-testid="movements-table">
          <caption className="sr-only">Money movements by status, as numbers</caption>
          <thead className="border-b border-line text-left text-[11px] uppercase tracking-wide text-muted">
            <tr>
              <th scope="col" className="py-1 pr-3 font-semibold">Kind</th>
              {statuses.map((status) => (
                <th key={status} scope="col" className="py-1 pr-3 text-right font-semibold">
                  {status}
                </th>
              ))}
              <th scope="col" className="py-1 text-right font-semibold">Total</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {movements.map((movement) => (
              <tr key={movement.resource}>
                <th scope="row" className="py-1 pr-3 text-left font-normal">
                  <Link href={movement.href} className="text-accent hover:underline">
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
      </section>
    </>
  );
}
