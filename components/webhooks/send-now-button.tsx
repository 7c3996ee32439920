"use client";

import { useState } from "react";
import { ActionError, AuditLink } from "@/components/actions/action-feedback";
import { useSendToWebhook } from "@/components/bank/bank-mutations";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { WebhookDelivery } from "@/lib/contract";

/** What the bank answered of the one attempt, in words. */
function attemptWords(attempt: WebhookDelivery): string {
  const answer = attempt.status_code == null ? (attempt.error ?? "no answer") : `HTTP ${attempt.status_code}`;
  return `attempt ${attempt.attempt}, ${answer}, ${attempt.succeeded ? "delivered" : "not acknowledged"}`;
}

/**
 * "Resend" of one notification, or "Send test event" to the webhook, for roles holding `webhook:write`: the one confirm
 * dialog says what the bank will send where (docs/webhooks.md, "Resend and test"), then the bank's answer, the attempt
 * it made, is shown beside the button, and the deliveries re-read (the new attempt appears under its notification).
 */
export function SendNowButton({
  webhookId,
  url,
  send,
  what,
}: {
  webhookId: string;
  url: string;
  /** A notification by id, or the test notification. */
  send: { resend: string } | "test";
  /** The notification in words ("ach.update about ach_…"), for the dialog. */
  what: string;
}) {
  const [asked, setAsked] = useState(false);
  const [sent, setSent] = useState<WebhookDelivery | null>(null);
  const action = useSendToWebhook(webhookId, (attempt) => {
    setAsked(false);
    setSent(attempt);
  });
  const test = send === "test";
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button
        type="button"
        variant="secondary"
        size="compact"
        data-testid={test ? "send-test-event" : "resend-notification"}
        onClick={() => {
          action.reset();
          setSent(null);
          setAsked(true);
        }}
      >
        {test ? "Send test event" : "Resend"}
      </Button>
      {sent ? (
        <span role="status" className="text-xs text-muted" data-testid="send-now-done">
          Sent: {attemptWords(sent)}. See <AuditLink target={webhookId} action={test ? "webhook.test" : "webhook.notification.resend"} />.
        </span>
      ) : null}
      {asked ? (
        <ConfirmDialog
          open
          title={test ? "Send a test event?" : "Resend this notification?"}
          confirmLabel={test ? "Send test event" : "Resend"}
          tone="primary"
          pending={action.isPending}
          error={action.error ? <ActionError error={action.error} /> : null}
          onConfirm={() => action.mutate(send)}
          onCancel={() => setAsked(false)}
        >
          <p className="break-words">
            {test
              ? `The bank sends one webhook.test notification about this webhook to ${url} now, once: it is never retried, and a bad response counts toward the webhook's error threshold like any other.`
              : `The bank sends ${what} to ${url} once more, now, as one more attempt of the same notification. If the receiver acknowledges it, the notification counts as delivered and is not retried again; if not, its retries stay as they were.`}
          </p>
        </ConfirmDialog>
      ) : null}
    </span>
  );
}
