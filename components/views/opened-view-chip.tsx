"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Notice } from "@/components/ui/notice";
import { removeView, type ViewActionState } from "@/lib/actions/views";
import type { OpenedView } from "./saved-view-controls";

const idle: ViewActionState = { error: null, done: null };

/** The chip naming the saved view a list shows: leave it (its columns revert), or remove it after confirmation. */
export function OpenedViewChip({ view, onLeave }: { view: OpenedView; onLeave(): void }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const remove = () =>
    startTransition(async () => {
      const form = new FormData();
      form.set("id", view.id);
      const answer = await removeView(idle, form);
      if (answer.error) return setError(answer.error);
      setConfirming(false);
      onLeave();
      router.refresh();
    });
  return (
    <span
      data-testid="opened-view"
      className="inline-flex items-center gap-1 rounded-full border border-accent/50 bg-surface-2 py-0.5 pr-1 pl-2 text-xs"
    >
      <span>
        View: <strong>{view.name}</strong>
        {view.shared ? <span className="text-muted"> · shared by {view.ownerEmail}</span> : null}
      </span>
      <button type="button" aria-label={`Leave the view ${view.name}`} className="rounded px-1 hover:bg-surface" onClick={onLeave}>
        ×
      </button>
      {view.mayRemove ? (
        <button type="button" className="rounded px-1 text-muted hover:bg-surface hover:text-fg" onClick={() => setConfirming(true)}>
          Remove view
        </button>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Remove the view "${view.name}"?`}
        confirmLabel="Remove view"
        pending={pending}
        error={error ? <Notice tone="error">{error}</Notice> : undefined}
        onConfirm={remove}
        onCancel={() => {
          setError(null);
          setConfirming(false);
        }}
      >
        <p>
          The saved filters and columns go away{view.shared ? " for every staff member" : ""}. The list and its rows are not changed. This is recorded
          in the audit trail.
        </p>
      </ConfirmDialog>
    </span>
  );
}
