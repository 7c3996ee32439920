"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import { useCan } from "@/components/console/providers";
import { Notice } from "@/components/ui/notice";
import { saveView, type ViewActionState } from "@/lib/actions/views";
import type { ResourceName } from "@/lib/resources/routes";
import type { ColumnLayout } from "@/lib/views/layout";

const idle: ViewActionState = { error: null, done: null };

/**
 * "Save view"'s form: the list's filters and sort (without paging) and its columns (shown, order, widths) under a name,
 * personal or shared. On
 * success the list reopens as the saved view, so the URL names it and the sidebar lists it.
 */
export function SaveViewForm({
  resource,
  query,
  layout,
  onSaved,
}: {
  resource: ResourceName;
  query: Record<string, string>;
  layout: ColumnLayout;
  onSaved(): void;
}) {
  const router = useRouter();
  const [state, save, saving] = useActionState(saveView, idle);
  const mayShare = useCan("view:share");
  useEffect(() => {
    if (!state.href) return;
    onSaved();
    router.push(state.href);
  }, [state, router, onSaved]);
  const filters = Object.fromEntries(Object.entries(query).filter(([name]) => name !== "page_cursor"));
  return (
    <form
      action={save}
      aria-label="Save view"
      className="absolute right-0 z-40 mt-1 w-64 space-y-2 rounded-md border border-line bg-surface p-3 shadow-lg"
    >
      <input type="hidden" name="resource" value={resource} />
      <input type="hidden" name="query" value={JSON.stringify(filters)} />
      <input type="hidden" name="columns" value={JSON.stringify(layout.visibility)} />
      <input type="hidden" name="layout" value={JSON.stringify({ order: layout.order, widths: layout.widths })} />
      <label className="block text-xs font-medium text-muted">
        Name
        <input name="name" required maxLength={60} className="mt-1 block w-full rounded border border-line bg-surface px-2 py-1 text-sm text-fg" />
      </label>
      {mayShare ? (
        <label className="flex items-center gap-2 text-xs">
          <input type="checkbox" name="shared" value="on" />
          Share with every staff member
        </label>
      ) : null}
      {state.error ? (
        <Notice tone="error" testId="save-view-error">
          {state.error}
        </Notice>
      ) : null}
      <button type="submit" disabled={saving} className="w-full rounded bg-accent px-2.5 py-1 text-xs font-medium text-accent-fg disabled:opacity-50">
        {saving ? "Saving…" : "Save view"}
      </button>
    </form>
  );
}
