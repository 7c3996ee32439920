"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { ActionError, AuditLink } from "@/components/actions/action-feedback";
import { AwaitingApproval } from "@/components/approvals/awaiting-approval";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { useCreateWebhook } from "@/components/bank/bank-mutations";
// The contract's event names, from the module the contract itself takes them from (free of zod, so small in the browser).
import { eventNames } from "@/lib/contract/events";
import { webhookUrlProblem as urlProblem } from "./webhook-form";

/**
 * The "New webhook" form on the webhooks list, for roles holding `webhook:write`: mounted open when its button is
 * first pressed (./new-webhook.tsx); Close folds it back to that button. The basic secret is write-only: it is sent
 * once, cleared from the form as soon as the bank answered, and never shown again (the bank answers it as null).
 */
export function CreateWebhook() {
  const canWrite = useCan("webhook:write");
  const [open, setOpen] = useState(true);
  const [event, setEvent] = useState(eventNames[0]!);
  const [url, setUrl] = useState("");
  const [basicUser, setBasicUser] = useState("");
  const [basicSecret, setBasicSecret] = useState("");
  const [checked, setChecked] = useState(false);
  const create = useCreateWebhook(() => {
    setBasicSecret("");
    setUrl("");
    setBasicUser("");
    setChecked(false);
  });
  if (!canWrite) return null;
  const problem = checked ? urlProblem(url) : null;

  function submit(formEvent: FormEvent) {
    formEvent.preventDefault();
    setChecked(true);
    if (urlProblem(url)) return;
    create.mutate({ event, url, ...(basicUser ? { basic_user: basicUser } : {}), ...(basicSecret ? { basic_secret: basicSecret } : {}) });
  }

  return (
    <div className="mb-4">
      {open ? null : (
        <Button type="button" onClick={() => setOpen(true)}>
          New webhook
        </Button>
      )}
      {open ? (
        <form
          onSubmit={submit}
          noValidate
          aria-labelledby="new-webhook-title"
          data-testid="create-webhook"
          className="space-y-3 rounded-md border border-line bg-surface p-3"
        >
          <h2 id="new-webhook-title" className="text-sm font-semibold">
            New webhook
          </h2>
          <div className="grid gap-3 md:grid-cols-2">
            <SelectField
              label="Event"
              name="event"
              value={event}
              onChange={(change) => setEvent(change.target.value)}
              options={eventNames.map((name) => ({ value: name, label: name }))}
            />
            <div>
              <TextField
                label="URL"
                name="url"
                type="url"
                required
                value={url}
                onChange={(change) => setUrl(change.target.value)}
                placeholder="https://example.com/hooks/bank"
                aria-invalid={problem ? true : undefined}
                hint="http or https; the bank POSTs each notification here."
              />
              {problem ? (
                <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300" data-testid="url-problem">
                  {problem}
                </p>
              ) : null}
            </div>
            <TextField
              label="Basic auth user (optional)"
              name="basic_user"
              autoComplete="off"
              value={basicUser}
              onChange={(change) => setBasicUser(change.target.value)}
            />
            <TextField
              label="Basic auth secret (optional)"
              name="basic_secret"
              type="password"
              autoComplete="new-password"
              value={basicSecret}
              onChange={(change) => setBasicSecret(change.target.value)}
              hint="Write-only: sent to the bank once and never shown again."
            />
          </div>
          <ActionError error={create.error} />
          <AwaitingApproval approval={create.awaitingApproval} />
          <div className="flex gap-2">
            <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
              {create.isPending ? "Creating…" : "Create webhook"}
            </Button>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)} disabled={create.isPending}>
              Close
            </Button>
          </div>
        </form>
      ) : null}
      {create.data ? (
        <p
          role="status"
          data-testid="webhook-created"
          className="mt-2 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
        >
          The bank created{" "}
          <Link href={`/webhooks/${encodeURIComponent(create.data.id)}`} className="font-mono underline">
            {create.data.id}
          </Link>{" "}
          ({create.data.event}, {create.data.status}). Any secret you entered is stored at the bank only. See{" "}
          <AuditLink target={create.data.id} action="webhook.create" />.
        </p>
      ) : null}
    </div>
  );
}
