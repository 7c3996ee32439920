import "server-only";
import Link from "next/link";
import { Suspense } from "react";
import { StatusBadge } from "@/components/bank/status-badge";
import { IdValue } from "@/components/bank/id-value";
import { requireUser } from "@/lib/auth/current-user";
import { consoleBankClient } from "@/lib/bank/console-client";
import { getActiveEnvironment } from "@/lib/credentials";
import { describeSubscriptions, type SubscriptionState } from "@/lib/index/subscriptions";
import { can } from "@/lib/permissions";
import { detailHref } from "@/lib/resources/routes";

/** The console's subscriptions at the bank, or null when the bank has no connection here or does not answer. */
async function readSubscriptions(): Promise<{ subscriptions: Array<SubscriptionState & { webhookId: string }>; canManage: boolean } | null> {
  // The list page around it checks the same; said here too, since this reads the bank on its own.
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const bank = await consoleBankClient(environment);
  if (!bank) return null;
  try {
    const states = await describeSubscriptions(bank, environment);
    return {
      subscriptions: states.filter((state): state is SubscriptionState & { webhookId: string } => state.webhookId !== null),
      canManage: can(user.role, "index:manage"),
    };
  } catch {
    // The customers' list above says what the bank answers; this section only sets the console's own apart.
    return null;
  }
}

async function Subscriptions() {
  const read = await readSubscriptions();
  if (!read || read.subscriptions.length === 0) return null;
  const { subscriptions, canManage } = read;
  const troubled = subscriptions.filter((subscription) => subscription.status !== "enabled").length;
  return (
    <section
      data-testid="console-subscriptions"
      aria-labelledby="console-subscriptions-heading"
      className="mt-4 rounded-md border border-line bg-surface px-3 py-2 text-sm"
    >
      <h2 id="console-subscriptions-heading" className="font-medium">
        The console&apos;s own subscriptions
        <span className="ml-2 text-xs font-normal text-muted">
          {subscriptions.length}
          {troubled > 0 ? <span className="text-red-700 dark:text-red-300"> ({troubled} not enabled)</span> : null}
        </span>
      </h2>
      <p className="mt-1 max-w-prose text-xs text-muted">
        Webhooks the console subscribed at the bank to keep its index (search, the index&apos;s filters, Home&apos;s figures) up to date: not the bank
        customer&apos;s, so they are not in the list above. They are managed in{" "}
        {canManage ? (
          <Link href="/settings/index" className="link underline">
            Settings → Index of the bank
          </Link>
        ) : (
          "Settings → Index of the bank (admins)"
        )}
        .
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer text-xs font-medium">Show the {subscriptions.length} subscriptions</summary>
        <ul className="mt-2 grid gap-x-6 gap-y-1 md:grid-cols-2">
          {subscriptions.map((subscription) => (
            <li key={subscription.webhookId} className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
              <IdValue id={subscription.webhookId} href={detailHref("webhook", subscription.webhookId)} />
              <StatusBadge status={subscription.status} />
              <span className="font-mono text-xs">{subscription.event}</span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

/**
 * The console's own subscriptions (its index's receiver, lib/index/subscriptions.ts) in a section of their own below
 * the bank customer's webhooks, which the list leaves them out of (components/bank/resource-list.tsx); read apart from
 * the list, so it never holds the list up. It streams in after the list and sits below it, so its arrival moves nothing
 * on screen: above the list it pushed the rows down by its height whenever it came after the first paint (layout
 * shift 0.037 at 1440 px in bench:pages).
 */
export function ConsoleSubscriptions() {
  return (
    <Suspense fallback={null}>
      <Subscriptions />
    </Suspense>
  );
}
