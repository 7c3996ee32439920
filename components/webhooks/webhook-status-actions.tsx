"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ActionError, AuditLink } from "@/components/actions/action-feedback";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useChangeWebhook, type WebhookChange } from "@/components/bank/bank-mutations";
import { AwaitingApproval } from "@/components/approvals/awaiting-approval";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { StatusBadge } from "@/components/bank/status-badge";
import { consoleSubscriptionLabel, isConsoleWebhook } from "@/lib/index/console-webhooks";
import { EditWebhook } from "./edit-webhook";
import { SendNowButton } from "./send-now-button";

type Change = WebhookChange;

/** What each change does, said before it happens (docs/webhooks.md: what the sandbox, like the bank, does). */
function effectOf(change: Change, event: string, url: string) {
  switch (change) {
    case "enable":
      return {
        title: "Enable this webhook?",
        label: "Enable",
        text: `The bank starts sending ${event} notifications to ${url} again. Deliveries paused while it was disabled are sent at once; events that happened meanwhile are not sent.`,
      };
    case "disable":
      return {
        title: "Disable this webhook?",
        label: "Disable",
        text: `The bank stops sending ${event} notifications to ${url}. Pending deliveries are paused, not dropped, and events that happen while it is disabled are not sent at all. Enabling it later resumes the paused deliveries.`,
      };
    case "reset":
      return {
        title: "Reset this webhook to enabled?",
        label: "Reset to enabled",
        text: `The webhook leaves error and becomes enabled: its error text is cleared, bad responses are counted afresh, and its paused deliveries to ${url} are sent at once (each keeps its attempt count). Events that happened while it was in error are not sent.`,
      };
    case "delete":
      return {
        title: "Delete this webhook?",
        label: "Delete webhook",
        text: `The webhook is removed at the bank: no more ${event} notifications go to ${url}, and its pending deliveries and delivery history are deleted with it. This cannot be undone; a new webhook would get a new id.`,
      };
  }
}

/**
 * One of the console's own subscriptions: said to every role, with what changing it would do to the index, and
 * read-only here (the proxy refuses its changes, so no action that could break the index is offered); the index
 * settings manage it, and confirm their own changes.
 */
function ConsoleSubscription({ event, canManage }: { event: string; canManage: boolean }) {
  return (
    <div data-testid="webhook-console-own" className="flex max-w-md flex-col items-end gap-1 text-right text-xs text-muted">
      <StatusBadge status={consoleSubscriptionLabel} tone="info" />
      <p>
        The bank sends its {event} notifications here to the console&apos;s receiver, which keeps the console&apos;s index (search, the index&apos;s
        filters, Home&apos;s figures) up to date. Changing, disabling or deleting it would leave the index behind. It carries the receiver&apos;s
        credentials, so it is changed only in{" "}
        {canManage ? (
          <Link href="/settings/index" className="link underline">
            Settings → Index of the bank
          </Link>
        ) : (
          "Settings → Index of the bank (admins)"
        )}
        .
      </p>
    </div>
  );
}

/**
 * Send test event, edit (url, event, Basic credentials), enable, disable, reset (error → enabled) and delete on a webhook's page, for roles holding `webhook:write`. Each
 * change states its effect in the one confirm dialog first; the page then shows what the bank answered. None on the
 * console's own subscriptions.
 */
export function WebhookStatusActions({ id, object, context }: DetailExtraProps) {
  const canWrite = useCan("webhook:write");
  const canManageIndex = useCan("index:manage");
  const router = useRouter();
  const [asked, setAsked] = useState<Change | null>(null);
  const [done, setDone] = useState<Change | null>(null);
  const [edited, setEdited] = useState<{ url: string; event: string } | null>(null);
  const action = useChangeWebhook(id, (change) => {
    setAsked(null);
    setDone(change);
    // The object is gone: its page would only say so, so go back to the list, which no longer has it.
    if (change === "delete") router.push("/webhooks");
  });
  if (isConsoleWebhook(object, context.consoleAddress ?? null))
    return <ConsoleSubscription event={String(object.event)} canManage={canManageIndex} />;
  if (!canWrite) return null;
  const status = String(object.status);
  const offered: Change[] = [status === "enabled" ? "disable" : status === "error" ? "reset" : "enable", "delete"];
  const effect = asked ? effectOf(asked, String(object.event), String(object.url)) : null;
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-2">
        {/* Only an enabled webhook is sent notifications (the bank answers 409 otherwise). */}
        {status === "enabled" ? <SendNowButton webhookId={id} url={String(object.url)} send="test" what="webhook.test" /> : null}
        <EditWebhook
          id={id}
          object={object}
          onSaved={(webhook) => {
            setDone(null);
            setEdited({ url: webhook.url, event: webhook.event });
          }}
        />
        {offered.map((change) => (
          <Button
            key={change}
            type="button"
            variant={change === "delete" ? "danger" : "secondary"}
            onClick={() => {
              action.reset();
              setDone(null);
              setEdited(null);
              setAsked(change);
            }}
          >
            {effectOf(change, "", "").label}
          </Button>
        ))}
      </div>
      {done && done !== "delete" ? (
        <p role="status" data-testid="webhook-action-done" className="text-xs text-muted">
          The bank answered: status {String((action.data as { status?: unknown } | undefined)?.status)}. See{" "}
          <AuditLink target={id} action="webhook.update" />.
        </p>
      ) : null}
      {edited ? (
        <p role="status" data-testid="webhook-edit-done" className="max-w-md text-right text-xs break-all text-muted">
          The bank answered: {edited.event} to {edited.url}. See <AuditLink target={id} action="webhook.update" />.
        </p>
      ) : null}
      <AwaitingApproval approval={action.awaitingApproval} />
      {effect && !action.awaitingApproval ? (
        <ConfirmDialog
          open
          title={effect.title}
          confirmLabel={effect.label}
          tone={asked === "delete" || asked === "disable" ? "danger" : "primary"}
          pending={action.isPending}
          error={action.error ? <ActionError error={action.error} /> : null}
          onConfirm={() => action.mutate(asked!)}
          onCancel={() => setAsked(null)}
        >
          <p>{effect.text}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
