import { EnvironmentTabs, IndexSettings } from "@/components/index-settings/index-settings";
import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";
import { consoleBankClient } from "@/lib/bank/console-client";
import { environments, getActiveEnvironment } from "@/lib/credentials";
import { isEnvironment } from "@/lib/credentials/environments";
import { consoleDb } from "@/lib/db/console";
import { indexOverview } from "@/lib/index/actions-overview";
import { receiverUrl } from "@/lib/index/runtime";
import { purgeIndex, resetIndexSubscription, rotateReceiverSecret, setUpIndexSubscriptions, startIndexBackfill } from "@/lib/actions/index-settings";

export const metadata = { title: "Index of the bank" };

const actions = {
  rotateReceiverSecret,
  setUpSubscriptions: setUpIndexSubscriptions,
  resetSubscription: resetIndexSubscription,
  startBackfill: startIndexBackfill,
  purgeIndex,
};

export default async function IndexSettingsPage({ searchParams }: { searchParams: Promise<{ environment?: string | string[] }> }) {
  await requireUser("index:manage");
  const asked = (await searchParams).environment;
  const active = await getActiveEnvironment();
  const environment = asked === undefined ? active : isEnvironment(asked) ? asked : null;
  const shown = environment ?? active;
  const client = await consoleBankClient(shown);
  const overview = await indexOverview((await consoleDb()).db, shown, { client, receiverUrl: receiverUrl(shown) });
  return (
    <>
      <PageHeader
        title="Index of the bank"
        description="The console's own copy of every bank object it has seen, kept current by the bank's webhooks, a walk of every list and a periodic sweep (docs/bank-index.md). Every change here is audited."
      />
      <EnvironmentTabs shown={shown} environments={environments} />
      {environment ? null : (
        <div className="mb-4">
          <Notice tone="error" testId="index-environment-error">
            environment: expected sandbox or production; showing {shown}.
          </Notice>
        </div>
      )}
      <IndexSettings overview={overview} actions={actions} configured={client !== null} active={shown === active} />
    </>
  );
}
