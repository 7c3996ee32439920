import { StatusBadge } from "@/components/bank/status-badge";
import { IdValue } from "@/components/bank/id-value";
import { Notice } from "@/components/ui/notice";
import { Table, Td, Th } from "@/components/ui/table";
import type { IndexOverview } from "@/lib/index/actions-overview";
import type { SubscriptionState } from "@/lib/index/subscriptions";
import { detailHref } from "@/lib/resources/routes";
import { IndexActionButton } from "./index-action-button";
import { Panel, type IndexSettingsActions } from "./panel";

function countsOf(subscriptions: SubscriptionState[]): string {
  const counts = new Map<string, number>();
  for (const { status } of subscriptions) counts.set(status, (counts.get(status) ?? 0) + 1);
  return (["enabled", "error", "disabled", "missing"] as const)
    .filter((status) => counts.has(status))
    .map((status) => `${counts.get(status)} ${status}`)
    .join(" · ");
}

/**
 * The console's own webhooks at the bank, one per event: which exist, which are missing, which the bank put in
 * `error` (with a reset). Webhook ids link to their page when this environment is the active one.
 */
export function SubscriptionsPanel({
  overview,
  actions,
  linkWebhooks,
}: {
  overview: IndexOverview;
  actions: IndexSettingsActions;
  linkWebhooks: boolean;
}) {
  const { environment, subscriptions: view } = overview;
  const listed = view.kind === "listed" ? view.subscriptions : null;
  return (
    <Panel
      testId={`index-subscriptions-${environment}`}
      title="Subscriptions"
      description={listed ? countsOf(listed) : "One webhook per event at the bank, marked as the console's in its userdata."}
      actions={
        view.kind === "not configured" ? null : (
          <IndexActionButton
            action={actions.setUpSubscriptions}
            fields={{ environment }}
            label="Set up subscriptions"
            variant={listed?.some((state) => state.status === "missing") ? "primary" : "secondary"}
            title={`Set up the ${environment} subscriptions?`}
            confirmLabel="Set up subscriptions"
          >
            <p>
              The console makes sure the {environment} bank has exactly one webhook per event pointing at {overview.receiverUrl} with the
              receiver&apos;s credentials: missing ones are created, ones with another address or an old secret are updated, duplicates are removed.
              Webhooks in error or disabled stay so.
            </p>
            {environment === "production" ? <p>This switches the production index on: the bank starts sending every change to the console.</p> : null}
          </IndexActionButton>
        )
      }
    >
      {view.kind === "not configured" ? (
        <Notice tone="info" testId={`index-subscriptions-problem-${environment}`}>
          The {environment} environment has no bank credentials, so the console cannot ask the bank about its webhooks. Save them under Bank
          credentials first.
        </Notice>
      ) : view.kind === "unreachable" ? (
        <Notice tone="error" testId={`index-subscriptions-problem-${environment}`}>
          The {environment} bank could not be asked about its webhooks: {view.reason}
        </Notice>
      ) : (
        <Table aria-label={`${environment} subscriptions`}>
          <thead className="bg-surface-2">
            <tr>
              <Th>Event</Th>
              <Th>Webhook</Th>
              <Th>Status</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {view.subscriptions.map((subscription) => (
              <tr key={subscription.event} data-testid={`index-subscription-${subscription.event}`}>
                <Td className="py-1.5 font-mono text-xs">{subscription.event}</Td>
                <Td className="py-1.5">
                  {subscription.webhookId ? (
                    <IdValue id={subscription.webhookId} href={linkWebhooks ? detailHref("webhook", subscription.webhookId) : undefined} />
                  ) : (
                    <span className="text-muted">—</span>
                  )}
                </Td>
                <Td className="py-1.5">
                  <div className="flex flex-wrap items-center gap-2">
                    <StatusBadge status={subscription.status} />
                    {subscription.status === "error" ? (
                      <IndexActionButton
                        action={actions.resetSubscription}
                        fields={{ environment, webhookId: subscription.webhookId! }}
                        label="Reset"
                        size="compact"
                        title={`Reset the ${subscription.event} subscription?`}
                        confirmLabel="Reset to enabled"
                      >
                        <p>
                          The webhook leaves error and becomes enabled: the bank sends its paused deliveries to the receiver at once. Events that
                          happened while it was in error are not sent: the sweep re-reads the newest page of each list, and Walk again (repair) reads
                          every list.
                        </p>
                      </IndexActionButton>
                    ) : null}
                  </div>
                  {subscription.error ? <p className="mt-0.5 text-xs text-red-700 dark:text-red-400">{subscription.error}</p> : null}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Panel>
  );
}
