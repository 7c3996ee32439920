import { Timestamp } from "@/components/bank/value";
import type { IndexOverview } from "@/lib/index/actions-overview";
import { IndexActionButton } from "./index-action-button";
import { Panel, type IndexSettingsActions } from "./panel";

/** Where the bank posts this environment's notifications and with which credentials (never the secret). */
export function ReceiverPanel({ overview, actions }: { overview: IndexOverview; actions: IndexSettingsActions }) {
  const { environment, receiver } = overview;
  return (
    <Panel
      testId={`index-receiver-${environment}`}
      title="Receiver"
      description="The bank's webhooks post here with HTTP Basic credentials the console generated; the secret is never shown after creation."
      actions={
        receiver ? (
          <IndexActionButton
            action={actions.rotateReceiverSecret}
            fields={{ environment }}
            label="Rotate receiver secret"
            title={`Rotate the ${environment} receiver secret?`}
            confirmLabel="Rotate secret"
            tone="danger"
          >
            <p>
              The console makes a new secret and at once re-registers all its {environment} subscriptions at the bank with it. The old secret is still
              accepted for a short overlap (INDEX_RECEIVER_SECRET_OVERLAP_MINUTES, 10 minutes by default), so deliveries already under way arrive;
              after it, notifications signed with the old secret are refused (401).
            </p>
          </IndexActionButton>
        ) : null
      }
    >
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="text-muted">URL</dt>
        <dd className="font-mono text-xs leading-5 break-all">{overview.receiverUrl}</dd>
        <dt className="text-muted">Credentials</dt>
        <dd data-testid={`index-receiver-credentials-${environment}`}>
          {receiver ? (
            <>
              user <span className="font-mono text-xs">{receiver.username}</span>, key <span className="font-mono text-xs">{receiver.keyId}</span>
            </>
          ) : (
            <span className="text-muted">none yet: made when the subscriptions are set up</span>
          )}
        </dd>
        {receiver ? (
          <>
            <dt className="text-muted">Created</dt>
            <dd>
              <Timestamp value={receiver.createdAt} /> by {receiver.createdBy}
            </dd>
            {receiver.previousValidUntil ? (
              <>
                <dt className="text-muted">Previous secret</dt>
                <dd data-testid={`index-receiver-previous-${environment}`}>
                  still accepted until <Timestamp value={receiver.previousValidUntil} />
                </dd>
              </>
            ) : null}
          </>
        ) : null}
      </dl>
    </Panel>
  );
}
