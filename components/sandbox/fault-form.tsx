"use client";

import { useState, type FormEvent } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { faultBodySchema } from "@/lib/sandbox-control/schemas";
import { blankFault, faultBody, type FaultDraft } from "./fault-draft";
import { useAddFault } from "./sandbox-mutations";

const statusOptions = [
  { value: "", label: "None (the real answer)" },
  { value: "429", label: "429 Too many requests" },
  { value: "500", label: "500 Internal error" },
  { value: "503", label: "503 Service unavailable" },
];
const webhookOptions = [
  { value: "delay", label: "Delay each delivery" },
  { value: "drop", label: "Drop each delivery (counted as a failed attempt)" },
  { value: "duplicate", label: "Duplicate each delivery" },
];

/** Adds one failure: checked with the console route's own schema before it is sent, the bank's refusal shown as it is. */
export function FaultForm() {
  const [draft, setDraft] = useState<FaultDraft>(blankFault);
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddFault(() => setProblem(null));
  const set = <K extends keyof FaultDraft>(key: K, value: FaultDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setProblem(null);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = faultBody(draft);
    const parsed = faultBodySchema.safeParse(body);
    if (!parsed.success) return setProblem(parsed.error.issues.map((issue) => issue.message).join("; "));
    add.mutate(body);
  }

  return (
    <form onSubmit={submit} aria-label="Add a failure" data-testid="fault-form" className="space-y-3 border-t border-line pt-3">
      <h3 className="text-sm font-semibold">Add a failure</h3>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <SelectField
          label="Fails"
          value={draft.kind}
          onChange={(change) => set("kind", change.target.value as FaultDraft["kind"])}
          options={[
            { value: "http", label: "API requests" },
            { value: "webhooks", label: "Webhook deliveries" },
          ]}
        />
        {draft.kind === "http" ? (
          <>
            <TextField
              label="Match"
              value={draft.match}
              onChange={(change) => set("match", change.target.value)}
              spellCheck={false}
              hint="* for every request, or METHOD /path such as GET /ach or PATCH /network_transfer/* (* stands for one segment)."
            />
            <SelectField label="Status" value={draft.status} onChange={(change) => set("status", change.target.value)} options={statusOptions} />
            <TextField
              label="Retry-After (seconds)"
              type="number"
              min={0}
              max={86400}
              value={draft.retryAfter}
              disabled={!draft.status}
              onChange={(change) => set("retryAfter", change.target.value)}
            />
            <TextField
              label="Latency (ms)"
              type="number"
              min={1}
              max={60000}
              value={draft.latencyMs}
              onChange={(change) => set("latencyMs", change.target.value)}
              hint="The answer, real or the status above, comes that much later."
            />
            <label className="flex items-center gap-2 self-center text-sm">
              <input type="checkbox" checked={draft.drop} onChange={(change) => set("drop", change.target.checked)} />
              Drop the connection (no answer; not with a status)
            </label>
          </>
        ) : (
          <>
            <SelectField
              label="Deliveries"
              value={draft.webhooks}
              onChange={(change) => set("webhooks", change.target.value as FaultDraft["webhooks"])}
              options={webhookOptions}
            />
            {draft.webhooks === "delay" ? (
              <TextField
                label="Delay (ms)"
                type="number"
                min={1}
                max={3600000}
                value={draft.delayMs}
                onChange={(change) => set("delayMs", change.target.value)}
              />
            ) : null}
          </>
        )}
        <TextField
          label="Share (optional)"
          type="number"
          min={0}
          max={1}
          step="any"
          value={draft.share}
          onChange={(change) => set("share", change.target.value)}
          hint="0 to 1: the fraction of matches it applies to; empty: all."
        />
        <TextField
          label="Times (optional)"
          type="number"
          min={1}
          value={draft.times}
          onChange={(change) => set("times", change.target.value)}
          hint="Removed after applying this many times."
        />
        <TextField
          label="Expires in (optional)"
          value={draft.expiresIn}
          placeholder="PT10M"
          spellCheck={false}
          onChange={(change) => set("expiresIn", change.target.value)}
          hint="An ISO 8601 duration on the sandbox's clock (PT30S, PT10M, P1D)."
        />
      </div>
      {problem ? (
        <p role="alert" data-testid="fault-problem" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      ) : null}
      <ActionError error={add.error} />
      {add.isSuccess && add.data ? (
        <p role="status" data-testid="fault-added" className="text-xs text-muted">
          Added <span className="font-mono">{add.data.id}</span>.
        </p>
      ) : null}
      <Button type="submit" disabled={add.isPending} aria-busy={add.isPending}>
        {add.isPending ? "Adding…" : "Add failure"}
      </Button>
    </form>
  );
}
