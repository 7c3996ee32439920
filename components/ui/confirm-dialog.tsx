"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button";
import { keepTabInside } from "./focus-trap";

/**
 * The ONE confirmation dialog for destructive or hard-to-undo actions. A native modal `<dialog>`: Tab stays inside
 * (keepTabInside), Escape cancels and the page behind is inert. It stays open while the action runs (so the pending state and
 * the bank's error are shown where the person decided) and is closed by the caller once the action succeeded.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  tone = "danger",
  pending = false,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  /** Exactly what will happen, in plain words. */
  children: ReactNode;
  confirmLabel: string;
  tone?: "danger" | "primary";
  pending?: boolean;
  /** The failure of the last attempt, shown inside the dialog. */
  error?: ReactNode;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    // Closed, or removed by its caller: focus goes back to what opened it (the browser does this only for close()).
    return () => {
      if (dialog.open) dialog.close();
      const focused = document.activeElement;
      const lost = !focused || focused === document.body || dialog.contains(focused);
      if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid="confirm-dialog"
      onKeyDown={keepTabInside}
      onCancel={(event) => {
        // Escape while the action runs would hide its outcome; otherwise it is Cancel.
        event.preventDefault();
        if (!pending) onCancel();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-line bg-surface p-0 text-fg shadow-xl backdrop:bg-black/40"
    >
      <div className="space-y-3 p-4">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <div id={bodyId} className="space-y-2 text-sm">
          {children}
        </div>
        {error ? <div data-testid="confirm-error">{error}</div> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button type="button" variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="button" variant={tone} onClick={onConfirm} disabled={pending} aria-busy={pending}>
            {pending ? "Working…" : confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
