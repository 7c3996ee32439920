"use client";

import { useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { AwaitingApproval } from "@/components/approvals/awaiting-approval";
import { useEditWebhook } from "@/components/bank/bank-mutations";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SelectField, TextField } from "@/components/ui/field";
import type { Webhook } from "@/lib/contract";
// The contract's event names, from the module the contract itself takes them from (free of zod, so small in the browser).
import { eventNames } from "@/lib/contract/events";
import { webhookEdit, webhookUrlProblem, type SecretChoice } from "./webhook-form";

/**
 * "Edit" on a webhook's page, for roles holding `webhook:write` (the permission that creates one): url, event and
 * Basic credentials in the one confirm dialog, which lists exactly what will change and what the bank does with the
 * pending deliveries before anything is sent. The PATCH goes through the proxy like every change (permission,
 * validation, audit as `webhook.update` with before and after); the secret is write-only, so the form never shows
 * one, only offers to keep, replace or remove it, and forgets what was typed once the bank answered.
 */
export default function EditWebhookDialog({
  id,
  object,
  onSaved,
  onClose,
}: {
  id: string;
  object: Record<string, unknown>;
  onSaved(webhook: Webhook): void;
  onClose(): void;
}) {
  const current = {
    url: String(object.url ?? ""),
    event: String(object.event ?? ""),
    basic_user: typeof object.basic_user === "string" ? object.basic_user : null,
  };
  // Mounted when "Edit" is clicked and unmounted on close, so each opening starts from the webhook as shown.
  const [url, setUrl] = useState(current.url);
  const [event, setEvent] = useState(current.event);
  const [basicUser, setBasicUser] = useState(current.basic_user ?? "");
  const [secret, setSecret] = useState<SecretChoice>("keep");
  const [basicSecret, setBasicSecret] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const save = useEditWebhook(id, (webhook) => {
    // The typed secret goes with this component: nothing of it outlives the bank's answer.
    setBasicSecret("");
    onSaved(webhook);
    onClose();
  });
  // A held edit keeps its sealed copy of the secret at the console; the typed one goes from this page as after a save.
  if (save.awaitingApproval && basicSecret !== "") setBasicSecret("");
  const edit = webhookEdit(current, { url, event, basicUser, secret, basicSecret });
  const changed = Object.keys(edit);

  function confirm() {
    const urlProblem = webhookUrlProblem(url);
    if (urlProblem) return setProblem(urlProblem);
    if (secret === "set" && basicSecret === "") return setProblem("Enter the new secret, or keep the current one.");
    if (changed.length === 0) return setProblem("Nothing is changed yet.");
    setProblem(null);
    save.mutate(edit);
  }

  const eventOptions = (eventNames as readonly string[]).includes(current.event) ? eventNames : [current.event, ...eventNames];
  return (
    <ConfirmDialog
      open
      title="Edit this webhook"
      confirmLabel="Save changes"
      tone="primary"
      pending={save.isPending}
      // Held for a second person's approval (docs/approvals.md): said here, where the edit was asked for.
      error={save.error ? <ActionError error={save.error} /> : save.awaitingApproval ? <AwaitingApproval approval={save.awaitingApproval} /> : null}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <div className="space-y-3" data-testid="edit-webhook-form">
        <TextField
          label="URL"
          name="url"
          type="url"
          value={url}
          onChange={(change) => setUrl(change.target.value)}
          aria-invalid={problem && webhookUrlProblem(url) ? true : undefined}
          hint="http or https; the bank checks the address as on create."
        />
        <SelectField
          label="Event"
          name="event"
          value={event}
          onChange={(change) => setEvent(change.target.value)}
          options={eventOptions.map((name) => ({ value: name, label: name }))}
        />
        <TextField
          label="Basic auth user"
          name="basic_user"
          autoComplete="off"
          value={basicUser}
          onChange={(change) => setBasicUser(change.target.value)}
          hint="Empty removes it."
        />
        <fieldset className="space-y-1">
          <legend className="block text-sm font-medium text-muted">Basic auth secret (write-only, never shown)</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {(
              [
                ["keep", "Keep the current one"],
                ["set", "Set a new one"],
                ["remove", "Remove it"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-1.5">
                <input type="radio" name="secret" value={value} checked={secret === value} onChange={() => setSecret(value)} />
                {label}
              </label>
            ))}
          </div>
          {secret === "set" ? (
            <TextField
              label="New secret"
              name="basic_secret"
              type="password"
              autoComplete="new-password"
              value={basicSecret}
              onChange={(change) => setBasicSecret(change.target.value)}
            />
          ) : null}
        </fieldset>
        <div className="rounded-md border border-line bg-surface-2 p-2 text-xs" data-testid="edit-webhook-summary" aria-live="polite">
          {changed.length === 0 ? (
            <p className="text-muted">Nothing changed yet.</p>
          ) : (
            <>
              <p className="mb-1 font-medium">The bank will change:</p>
              <ul className="list-inside list-disc space-y-0.5">
                {edit.url !== undefined ? (
                  <li className="break-all">
                    URL <span className="font-mono">{current.url}</span> → <span className="font-mono">{edit.url}</span>
                  </li>
                ) : null}
                {edit.event !== undefined ? (
                  <li>
                    Event <span className="font-mono">{current.event}</span> → <span className="font-mono">{edit.event}</span>
                  </li>
                ) : null}
                {edit.basic_user !== undefined ? (
                  <li>
                    Basic auth user <span className="font-mono">{current.basic_user ?? "none"}</span> →{" "}
                    <span className="font-mono">{edit.basic_user ?? "none"}</span>
                  </li>
                ) : null}
                {edit.basic_secret !== undefined ? <li>Basic auth secret {edit.basic_secret === null ? "removed" : "replaced"}</li> : null}
              </ul>
              <p className="mt-1 text-muted">
                From now on every notification, including retries of pending deliveries, goes to the new address with the new credentials.
                {edit.event !== undefined ? ` Only ${edit.event} events are sent from now; pending ${current.event} deliveries are still sent.` : ""}
              </p>
            </>
          )}
        </div>
        {problem ? (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300" data-testid="edit-webhook-problem">
            {problem}
          </p>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
