"use client";

import { useCallback, useRef, useState } from "react";
import { lazyComponent } from "@/components/ui/lazy-component";
import type { ResourceName } from "@/lib/resources/routes";
import type { ColumnLayout } from "@/lib/views/layout";

// A list's saved-view controls as its first load needs them: the button, and the notice. The form (opened by the
// button) and the chip (shown only in a view, with its removal dialog) are chunks of their own, loaded when shown.
const SaveViewForm = lazyComponent(() => import("./saved-view-form").then((module) => module.SaveViewForm), {
  fallback: <p className="absolute right-0 z-40 mt-1 w-64 rounded-md border border-line bg-surface p-3 text-xs text-muted shadow-lg">Loading…</p>,
});
/** The chip naming the saved view a list shows (opened-view-chip.tsx): leave it, or remove it after confirmation. */
export const OpenedViewChip = lazyComponent(() => import("./opened-view-chip").then((module) => module.OpenedViewChip));

/** What a list knows of the saved view it was opened from (read on the server: ResourceListPage). */
export interface OpenedView {
  id: string;
  name: string;
  shared: boolean;
  ownerEmail: string;
  columns: Record<string, boolean>;
  /** Its columns' order and the widths set. */
  layout: { order?: string[]; widths?: Record<string, number> };
  /** Its owner, or an admin for a shared view. */
  mayRemove: boolean;
}

const toolbarButton = "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium hover:bg-surface-2";

/** "Save view": opens the form that saves the list's filters, sort and columns under a name (saved-view-form.tsx). */
export function SaveViewButton(props: { resource: ResourceName; query: Record<string, string>; layout: ColumnLayout }) {
  const details = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => {
    if (details.current) details.current.open = false;
  }, []);
  return (
    <details ref={details} className="relative" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className={`${toolbarButton} cursor-pointer list-none whitespace-nowrap`}>Save view</summary>
      {open ? <SaveViewForm {...props} onSaved={close} /> : null}
    </details>
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
