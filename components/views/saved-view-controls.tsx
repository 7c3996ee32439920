"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect, useRef, useState, useTransition } from "react";
import { Notice } from "@/components/ui/notice";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { removeView, saveView, type ViewActionState } from "@/lib/actions/views";
import type { ResourceName } from "@/lib/resources";

/** What a list knows of the saved view it was opened from (read on the server: ResourceListPage). */
export interface OpenedView {
  id: string;
  name: string;
  shared: boolean;
  ownerEmail: string;
  columns: Record<string, boolean>;
  /** Its owner, or an admin for a shared view. */
  mayRemove: boolean;
}

const idle: ViewActionState = { error: null, done: null };
const toolbarButton = "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2";

/**
 * "Save view": the list's filters (without paging) and visible columns under a name, personal or shared. On success
 * the list reopens as the saved view, so the URL names it and the sidebar lists it.
 */
export function SaveViewButton({
  resource,
  query,
  columns,
}: {
  resource: ResourceName;
  query: Record<string, string>;
  columns: Record<string, boolean>;
}) {
  const router = useRouter();
  const [state, save, saving] = useActionState(saveView, idle);
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (!state.href) return;
    if (details.current) details.current.open = false;
    router.push(state.href);
  }, [state, router]);
  const filters = Object.fromEntries(Object.entries(query).filter(([name]) => name !== "page_cursor"));
  return (
    <details ref={details} className="relative">
      <summary className={`${toolbarButton} cursor-pointer list-none`}>Save view</summary>
      <form
        action={save}
        aria-label="Save view"
        className="absolute right-0 z-40 mt-1 w-64 space-y-2 rounded-md border border-line bg-surface p-3 shadow-lg"
      >
        <input type="hidden" name="resource" value={resource} />
        <input type="hidden" name="query" value={JSON.stringify(filters)} />
        <input type="hidden" name="columns" value={JSON.stringify(columns)} />
        <label className="block text-xs font-medium text-muted">
          Name
          <input name="name" required maxLength={60} className="mt-1 block w-full rounded border border-line bg-surface px-2 py-1 text-sm text-fg" />
        </label>
        <label className="flex items-center gap-2 text-xs">
          <input type="checkbox" name="shared" value="on" />
          Share with every staff member
        </label>
        {state.error ? (
          <Notice tone="error" testId="save-view-error">
            {state.error}
          </Notice>
        ) : null}
        <button
          type="submit"
          disabled={saving}
          className="w-full rounded bg-accent px-2.5 py-1 text-xs font-medium text-accent-fg disabled:opacity-50"
        >
          {saving ? "Saving…" : "Save view"}
        </button>
      </form>
    </details>
  );
}

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

/** A link opened a saved view that no longer exists, or was never shared with this user. */
export function MissingViewNotice({ onLeave }: { onLeave(): void }) {
  return (
    <p role="status" data-testid="missing-view" className="mb-2 text-xs text-muted">
      This link names a saved view that was removed or is not shared with you; the filters in the link still apply.{" "}
      <button type="button" className="underline" onClick={onLeave}>
        Hide this
      </button>
    </p>
  );
}
