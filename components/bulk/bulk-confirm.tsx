"use client";

import { useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TextField } from "@/components/ui/field";
import { UserdataChanges } from "@/components/userdata/userdata-changes";
import { bulkActions, type BulkActionName } from "@/lib/bulk/codes";
import type { BulkStart } from "./bulk-queries";

/** A value as typed: JSON when it parses (`42`, `true`, `{"a": 1}`), else the text itself. */
function typedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const noun = (resource: string, count: number) =>
  `${count} ${resource === "network_transfer" ? "network transfer" : resource === "webhook" ? "webhook" : "application"}${count === 1 ? "" : "s"}`;

/**
 * The one confirmation of a bulk action: its arguments (a userdata key and value, a reviewer), then exactly what will
 * be done to every selected object, with the one diff a userdata change makes to each.
 */
export function BulkConfirm({
  action,
  resource,
  ids,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  action: BulkActionName;
  resource: string;
  ids: string[];
  pending: boolean;
  error: unknown;
  onConfirm(request: BulkStart): void;
  onCancel(): void;
}) {
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [reviewer, setReviewer] = useState("");
  const [incomplete, setIncomplete] = useState(false);
  const definition = bulkActions[action];
  const needsKey = action === "userdata.set" || action === "userdata.remove";
  const ready =
    (!needsKey || key.trim() !== "") && (action !== "userdata.set" || value !== "") && (action !== "review.assign" || reviewer.trim() !== "");
  const request: BulkStart = {
    action,
    resource,
    ids,
    ...(needsKey ? { key: key.trim() } : {}),
    ...(action === "userdata.set" ? { value: typedValue(value) } : {}),
    ...(action === "review.assign" ? { reviewer: reviewer.trim() } : {}),
  };
  return (
    <ConfirmDialog
      open
      title={`${definition.label}: ${noun(resource, ids.length)}`}
      confirmLabel={pending ? "Starting…" : `${definition.label} on ${ids.length}`}
      tone={action === "webhook.disable" ? "danger" : "primary"}
      pending={pending}
      error={
        incomplete && !ready ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            Fill in {action === "review.assign" ? "the reviewer's email" : action === "userdata.set" ? "the key and the value" : "the key"} first.
          </p>
        ) : error ? (
          <ActionError error={error} testId="bulk-start-error" />
        ) : undefined
      }
      onConfirm={() => (ready ? onConfirm(request) : setIncomplete(true))}
      onCancel={onCancel}
    >
      <div className="space-y-3 text-sm">
        {needsKey ? <TextField label="Userdata key" value={key} onChange={(event) => setKey(event.target.value)} autoComplete="off" /> : null}
        {action === "userdata.set" ? (
          <TextField
            label="Value"
            hint="JSON (42, true, a quoted text, an object); anything else is sent as text."
            value={value}
            onChange={(event) => setValue(event.target.value)}
            autoComplete="off"
          />
        ) : null}
        {action === "review.assign" ? (
          <TextField label="Reviewer's email" type="email" value={reviewer} onChange={(event) => setReviewer(event.target.value)} />
        ) : null}
        {needsKey && key.trim() ? (
          <div>
            <p className="mb-1">The change to each transfer&apos;s userdata (every other key stays as it is):</p>
            <UserdataChanges
              testId="bulk-diff"
              changes={[
                action === "userdata.set"
                  ? { path: key.trim(), kind: "added", after: typedValue(value) }
                  : { path: key.trim(), kind: "removed", before: "its current value" },
              ]}
            />
          </div>
        ) : null}
        <p>
          The console {definition.verb} each of the {noun(resource, ids.length)} on the server, one at a time, each audited as a single change. A row
          that changed since it was selected is skipped; where four-eyes holds, the whole set waits for one approval. Closing this tab does not stop
          it.
        </p>
      </div>
    </ConfirmDialog>
  );
}
