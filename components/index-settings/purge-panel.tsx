import type { IndexOverview } from "@/lib/index/actions-overview";
import { IndexActionButton } from "./index-action-button";
import { Panel, type IndexSettingsActions } from "./panel";

const count = (value: number) => value.toLocaleString("en-US");

/** Deletes everything the index holds of the environment; the dialog names what goes, with its counts. */
export function PurgePanel({ overview, actions }: { overview: IndexOverview; actions: IndexSettingsActions }) {
  const { environment, contents, backfill } = overview;
  const objects = contents.byResource.reduce((sum, row) => sum + row.objects + row.gone, 0);
  return (
    <Panel
      testId={`index-purge-${environment}`}
      title="Purge"
      description="The index keeps bank objects unmasked, like the audit trail. Versions older than INDEX_RETENTION_DAYS are purged by themselves, except each object's latest."
      actions={
        <IndexActionButton
          action={actions.purgeIndex}
          fields={{ environment }}
          label="Purge this environment's index"
          variant="danger"
          tone="danger"
          title={`Purge the ${environment} index?`}
          confirmLabel={`Purge ${environment} index`}
        >
          <p>These are deleted from the console&apos;s database:</p>
          <ul className="list-disc pl-5">
            <li>{count(objects)} indexed objects (their latest state)</li>
            <li>{count(contents.versions)} versions (every state seen, and what changed)</li>
            <li>{count(contents.inbox.total)} received notifications</li>
            <li>the backfill&apos;s progress of {backfill.filter((list) => list.walk !== "not started").length} lists</li>
          </ul>
          <p>
            Nothing changes at the bank, and the receiver and subscriptions stay: new notifications keep arriving and fill the index again. Walk the
            lists again to rebuild it. The purge is recorded in the audit log; the audit trail itself is not purged.
          </p>
        </IndexActionButton>
      }
    >
      <p className="text-sm" data-testid={`index-purge-summary-${environment}`}>
        Holds {count(objects)} objects, {count(contents.versions)} versions and {count(contents.inbox.total)} notifications.
      </p>
    </Panel>
  );
}
