"use client";

import { startTransition, useActionState, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { IndexActionState } from "@/lib/index/actions";

const initial: IndexActionState = { error: null, done: null };

export type IndexAction = (previous: IndexActionState, form: FormData) => Promise<IndexActionState>;

/**
 * One index control: a button that asks in the one confirm dialog (saying exactly what happens), then runs its server
 * action. The dialog stays open while it runs and shows a refusal or failure there; on success it closes and the
 * result is told beside the button (the page itself re-reads the index).
 */
export function IndexActionButton(props: {
  action: IndexAction;
  fields: Record<string, string>;
  label: string;
  title: string;
  confirmLabel: string;
  tone?: "danger" | "primary";
  variant?: "primary" | "secondary" | "danger";
  size?: "regular" | "compact";
  children: ReactNode;
}) {
  const [state, run, pending] = useActionState(props.action, initial);
  // The state when the person asked: the dialog shows until the action answers anything else than a refusal.
  const [askedAt, setAskedAt] = useState<IndexActionState | null>(null);
  const open = askedAt !== null && (state === askedAt || state.error !== null);
  const confirm = () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(props.fields)) form.set(name, value);
    startTransition(() => run(form));
  };
  return (
    <>
      <Button type="button" variant={props.variant ?? "secondary"} size={props.size} onClick={() => setAskedAt(state)} disabled={pending}>
        {props.label}
      </Button>
      {state.done && !open ? (
        <span role="status" className="text-xs text-muted">
          {state.done}
        </span>
      ) : null}
      {open ? (
        <ConfirmDialog
          open={open}
          title={props.title}
          confirmLabel={props.confirmLabel}
          tone={props.tone ?? "primary"}
          pending={pending}
          error={state.error && state !== askedAt ? <p className="text-sm text-red-700 dark:text-red-400">{state.error}</p> : null}
          onConfirm={confirm}
          onCancel={() => setAskedAt(null)}
        >
          {props.children}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
