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

/** One environment's index: receiver and subscriptions beside the backfill, and its purge. */
export function IndexSettings(props: { overview: IndexOverview; actions: IndexSettingsActions; configured: boolean; active: boolean }) {
  const { overview, actions } = props;
  return (
    <div data-testid={`index-settings-${overview.environment}`} className="grid gap-4 xl:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <div className="space-y-4">
        <ReceiverPanel overview={overview} actions={actions} />
        <SubscriptionsPanel overview={overview} actions={actions} linkWebhooks={props.active} />
      </div>
      <div className="space-y-4">
        <BackfillPanel overview={overview} actions={actions} configured={props.configured} />
        <PurgePanel overview={overview} actions={actions} />
      </div>
    </div>
  );
}
