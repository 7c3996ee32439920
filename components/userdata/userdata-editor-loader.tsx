"use client";

import { useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { readUserdata, type CurrentUserdata } from "@/lib/bank/queries";

/**
 * The editor (CodeMirror) loads only when someone edits, so it never counts against the page's first-load JavaScript.
 * Its code is fetched while the bank is read (from the pointer reaching the button), and the editor rendered once
 * both are here: through `next/dynamic` it suspended after the read, and React holds a Suspense boundary's content
 * back for up to 300 ms after its fallback showed (docs/benchmarks.md, pages).
 */
const loadEditor = () => import("./userdata-editor").then((module) => module.default);
type Editor = Awaited<ReturnType<typeof loadEditor>>;
/** Fetched ahead; a failure here is left for the click, which loads it again and shows what went wrong. */
const preloadEditor = () => void loadEditor().catch(() => {});

/**
 * "Edit userdata" on a network transfer, for roles holding `bank:userdata:write`: reads the bank's current value,
 * then opens the editor on it.
 */
export function UserdataEditorLoader({ id, onWritten }: DetailExtraProps) {
  const canEdit = useCan("bank:userdata:write");
  const [opened, setOpened] = useState<{ current: CurrentUserdata; Editor: Editor } | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!canEdit) return null;
  return (
    <section aria-labelledby="userdata-title" data-testid="userdata-panel" className="mt-4 rounded-md border border-line bg-surface p-3">
      <h2 id="userdata-title" className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        Userdata
      </h2>
      {opened ? (
        <opened.Editor
          id={id}
          initial={opened.current}
          onClose={() => setOpened(null)}
          onSaved={(saved) => onWritten?.({ userdata: saved.userdata }, saved.updated_at)}
        />
      ) : (
        <div className="space-y-2">
          <p className="text-sm text-muted">
            The one field of a network transfer that can be changed. Opening it reads the current value unmasked (recorded in the audit log).
          </p>
          <Button
            type="button"
            disabled={pending}
            aria-busy={pending}
            onPointerEnter={preloadEditor}
            onFocus={preloadEditor}
            onClick={async () => {
              setPending(true);
              setError(null);
              try {
                const [current, Editor] = await Promise.all([readUserdata(id), loadEditor()]);
                setOpened({ current, Editor });
              } catch (failure) {
                setError(failure);
              } finally {
                setPending(false);
              }
            }}
          >
            {pending ? "Reading…" : "Edit userdata"}
          </Button>
          <ActionError error={error} />
        </div>
      )}
    </section>
  );
}
