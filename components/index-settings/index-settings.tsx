import Link from "next/link";
import type { Environment } from "@/lib/credentials/environments";
import type { IndexOverview } from "@/lib/index/actions-overview";
import { BackfillPanel } from "./backfill-panel";
import type { IndexSettingsActions } from "./panel";
import { PurgePanel } from "./purge-panel";
import { ReceiverPanel } from "./receiver-panel";
import { SubscriptionsPanel } from "./subscriptions-panel";

/** The environment whose index is shown, chosen in the URL (`?environment=`). */
export function EnvironmentTabs({ shown, environments }: { shown: Environment; environments: readonly Environment[] }) {
  return (
    <nav aria-label="Index environment" className="mb-4 inline-flex rounded-md border border-line bg-surface p-0.5 text-sm">
      {environments.map((environment) => (
        <Link
          key={environment}
          href={`/settings/index?environment=${environment}`}
          aria-current={environment === shown ? "page" : undefined}
          className={`rounded px-3 py-1 capitalize ${environment === shown ? "bg-accent text-accent-fg" : "text-muted hover:text-fg"}`}
        >
          {environment}
        </Link>
      ))}
    </nav>
  );
}

/** One environment's index: receiver and purge side by side, then the backfill and the subscriptions at full width. */
export function IndexSettings(props: { overview: IndexOverview; actions: IndexSettingsActions; configured: boolean; active: boolean }) {
  const { overview, actions } = props;
  return (
    <div data-testid={`index-settings-${overview.environment}`} className="min-w-0 space-y-4">
      <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <ReceiverPanel overview={overview} actions={actions} />
        <PurgePanel overview={overview} actions={actions} />
      </div>
      <BackfillPanel overview={overview} actions={actions} configured={props.configured} />
      <SubscriptionsPanel overview={overview} actions={actions} linkWebhooks={props.active} />
    </div>
  );
}
