"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { readUserdata, type CurrentUserdata } from "@/lib/bank/queries";

/** The editor (CodeMirror) loads only when someone edits, so it never counts against the page's first-load JavaScript. */
const UserdataEditor = dynamic(() => import("./userdata-editor"), {
  ssr: false,
  loading: () => <p className="text-sm text-muted">Loading the editor…</p>,
});

/**
 * "Edit userdata" on a network transfer, for roles holding `bank:userdata:write`: reads the bank's current value,
 * then opens the editor on it.
 */
export function UserdataEditorLoader({ id, onWritten }: DetailExtraProps) {
  const canEdit = useCan("bank:userdata:write");
  const [current, setCurrent] = useState<CurrentUserdata | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!canEdit) return null;
  return (
    <section aria-labelledby="userdata-title" data-testid="userdata-panel" className="mt-4 rounded-md border border-line bg-surface p-3">
      <h2 id="userdata-title" className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        Userdata
      </h2>
      {current ? (
        <UserdataEditor
          id={id}
          initial={current}
          onClose={() => setCurrent(null)}
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
            onClick={async () => {
              setPending(true);
              setError(null);
              try {
                setCurrent(await readUserdata(id));
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
