"use client";

import Link from "next/link";
import { Timestamp } from "@/components/bank/value";
import { Td } from "@/components/ui/table";
import type { WebhookDelivery } from "@/lib/contract";
import { detailHref, resourceForId } from "@/lib/resources/routes";
import type { NotificationGroup } from "@/lib/webhooks/notifications";
import { DeliveryDetails } from "./delivery-details";
import { SendNowButton } from "./send-now-button";

/** The columns a notification row spans (the table's header in ./webhook-deliveries.tsx has as many). */
export const notificationColumns = 8;

const outcomeClass = (succeeded: boolean) => (succeeded ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400");

/** Every attempt of the notification on this page, newest first: number, time, answer, latency, error. */
function AttemptList({ attempts }: { attempts: WebhookDelivery[] }) {
  return (
    <div className="mb-3">
      <h3 className="mb-1 text-xs font-semibold text-muted">
        {attempts.length === 1 ? "Its attempt" : `Its ${attempts.length} attempts on this page`}
      </h3>
      <ol className="space-y-0.5 text-xs" data-testid="notification-attempts">
        {attempts.map((attempt) => (
          <li key={attempt.id} data-testid="attempt-row" data-succeeded={attempt.succeeded} className="flex flex-wrap gap-x-3">
            <span className="font-medium">#{attempt.attempt}</span>
            <Timestamp value={attempt.attempted_at} compact />
            <span className={outcomeClass(attempt.succeeded)}>{attempt.status_code ?? "no answer"}</span>
            <span className="text-muted">{attempt.latency_ms == null ? "" : `${attempt.latency_ms} ms`}</span>
            <span className="break-words text-muted">{attempt.error ?? ""}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/**
 * One notification (an event sent to this webhook) as one row: its latest attempt's time and answer, how many attempts
 * this page holds, and, opened, each attempt and the latest one's request and reply. Roles that manage webhooks may
 * resend it.
 */
export function NotificationRow({
  group,
  webhookId,
  webhookUrl,
  expanded,
  onToggle,
  managesWebhooks,
}: {
  group: NotificationGroup<WebhookDelivery>;
  webhookId: string;
  webhookUrl: string;
  expanded: boolean;
  onToggle(): void;
  managesWebhooks: boolean;
}) {
  const latest = group.latest;
  const resource = resourceForId(latest.object_id);
  const href = resource ? detailHref(resource.name, latest.object_id) : null;
  const count = group.attempts.length;
  const detailsId = `notification-${group.notificationId}`;
  return (
    <>
      <tr data-testid="delivery-row" data-succeeded={latest.succeeded} data-notification={group.notificationId}>
        <Td className="text-xs whitespace-nowrap">
          <Timestamp value={latest.attempted_at} compact />
        </Td>
        <Td className="font-mono text-xs">{latest.event}</Td>
        <Td className="font-mono text-xs">
          {href ? (
            <Link href={href} className="link">
              {latest.object_id}
            </Link>
          ) : (
            latest.object_id
          )}
        </Td>
        <Td className="text-xs whitespace-nowrap" data-testid="notification-attempt-count">
          {count === 1 ? "1 attempt" : `${count} attempts`}
          {group.delivered && !latest.succeeded ? <span className="block text-muted">delivered before</span> : null}
        </Td>
        <Td className={outcomeClass(latest.succeeded)}>{latest.status_code ?? "no answer"}</Td>
        <Td className="whitespace-nowrap">{latest.latency_ms == null ? "n/a" : `${latest.latency_ms} ms`}</Td>
        <Td className="max-w-xs text-xs break-words">{latest.error ?? ""}</Td>
        <Td>
          <span className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              className="rounded border border-line px-2 py-0.5 text-xs whitespace-nowrap hover:bg-surface-2"
              aria-expanded={expanded}
              aria-controls={detailsId}
              onClick={onToggle}
              data-testid="delivery-toggle"
            >
              {expanded ? "Hide" : managesWebhooks ? "Attempts, payload and reply" : "Attempts and payload"}
            </button>
            {managesWebhooks ? (
              <SendNowButton
                webhookId={webhookId}
                url={webhookUrl}
                send={{ resend: group.notificationId }}
                what={`${latest.event} about ${latest.object_id}`}
              />
            ) : null}
          </span>
        </Td>
      </tr>
      {expanded ? (
        <tr id={detailsId} className="bg-surface-2/40">
          <Td colSpan={notificationColumns}>
            <AttemptList attempts={group.attempts} />
            <DeliveryDetails row={latest} />
          </Td>
        </tr>
      ) : null}
    </>
  );
}
