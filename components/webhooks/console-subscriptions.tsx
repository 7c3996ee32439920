import "server-only";
import { Suspense } from "react";
import { StatusBadge } from "@/components/bank/status-badge";
import { IdValue } from "@/components/bank/id-value";
import { requireUser } from "@/lib/auth/current-user";
import { consoleBankClient } from "@/lib/bank/console-client";
import { getActiveEnvironment } from "@/lib/credentials";
import { describeSubscriptions, type SubscriptionState } from "@/lib/index/subscriptions";
import { detailHref } from "@/lib/resources/routes";

/** The console's subscriptions at the bank, or null when the bank has no connection here or does not answer. */
async function readSubscriptions(): Promise<Array<SubscriptionState & { webhookId: string }> | null> {
  // The list page around it checks the same; said here too, since this reads the bank on its own.
  await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const bank = await consoleBankClient(environment);
  if (!bank) return null;
  try {
    const states = await describeSubscriptions(bank, environment);
    return states.filter((state): state is SubscriptionState & { webhookId: string } => state.webhookId !== null);
  } catch {
    // The list below says what the bank answers; this group only sets the console's own apart.
    return null;
  }
}

async function Subscriptions() {
  const subscriptions = await readSubscriptions();
  if (!subscriptions || subscriptions.length === 0) return null;
  const troubled = subscriptions.filter((subscription) => subscription.status !== "enabled").length;
  return (
    <details data-testid="console-subscriptions" className="mb-3 rounded-md border border-line bg-surface px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium">
        Show the console&apos;s {subscriptions.length} subscriptions
        {troubled > 0 ? <span className="ml-2 text-xs font-normal text-red-700 dark:text-red-300">({troubled} not enabled)</span> : null}
      </summary>
      <p className="mt-2 max-w-prose text-xs text-muted">
        The console subscribes to every event for its index (search, filters, Home&apos;s figures): these webhooks are the console&apos;s, not the
        bank customer&apos;s, and are marked &ldquo;Console&apos;s index subscription&rdquo; in the list below. Changing one leaves the index behind;
        Settings → Index of the bank manages them.
      </p>
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
  );
}

/**
 * The console's own subscriptions (its index's receiver, lib/index/subscriptions.ts) as a group of their own above the
 * webhooks list, folded behind "Show the console's N subscriptions"; read after the list, so it never holds the list up.
 */
export function ConsoleSubscriptions() {
  return (
    <Suspense fallback={null}>
      <Subscriptions />
    </Suspense>
  );
}
