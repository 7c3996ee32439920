"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { useConsoleSession } from "@/components/console/providers";
import { bankApiPath, describeFailure, fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import { resourceRoutes, type ResourceName } from "@/lib/resources/routes";

export interface Revealed {
  object: Record<string, unknown>;
  at: string;
  /** When the page masks it again (REVEAL_MINUTES after the reveal). */
  until: number;
}

const amber =
  "rounded border border-amber-500 px-2.5 py-1 text-xs font-medium text-amber-950 hover:bg-amber-100 disabled:opacity-50 dark:text-amber-200 dark:hover:bg-amber-900";

function remaining(until: number, now: number) {
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * "Reveal masked fields" for roles that may: it asks why (free text or a ticket reference, required), then POSTs the
 * reason; the console audits the reveal with the fields shown and the reason before it answers. The unmasked object
 * lives in this page's state only, for REVEAL_MINUTES, then the page masks it again; leaving the page hides it too.
 * The timeline (read on the server) is refreshed at once, so the reveal shows there.
 */
export function RevealControl({
  resource,
  id,
  canReveal,
  revealed,
  onChange,
}: {
  resource: ResourceName;
  id: string;
  canReveal: boolean;
  revealed: Revealed | null;
  onChange(next: Revealed | null): void;
}) {
  const { environment, revealMinutes } = useConsoleSession();
  const queryClient = useQueryClient();
  const router = useRouter();
  const reasonId = useId();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!revealed) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const hide = setTimeout(() => onChange(null), Math.max(0, revealed.until - Date.now()));
    return () => {
      clearInterval(tick);
      clearTimeout(hide);
    };
  }, [revealed, onChange]);

  if (!canReveal) {
    return (
      <p className="text-xs text-muted" data-testid="masked-note">
        Some fields are masked for your role.
      </p>
    );
  }
  if (revealed) {
    return (
      <div
        role="status"
        data-testid="revealed-banner"
        className="flex items-center gap-2 rounded border border-amber-400 bg-amber-50 px-2 py-1 text-xs text-amber-950 dark:bg-amber-950 dark:text-amber-200"
      >
        <span>
          <strong>Masked fields revealed</strong>: your reveal and its reason are in the audit log. Masked again in{" "}
          <span data-testid="reveal-remaining" className="tabular-nums">
            {remaining(revealed.until, now)}
          </span>
          .
        </span>
        <button
          type="button"
          onClick={() => onChange(null)}
          className="rounded border border-amber-500 px-1.5 py-0.5 font-medium hover:bg-amber-100 dark:hover:bg-amber-900"
        >
          Hide again
        </button>
      </div>
    );
  }
  const reveal = async () => {
    setPending(true);
    setFailure(null);
    try {
      const path = bankApiPath(`${resourceRoutes[resource].apiPath}/${encodeURIComponent(id)}/reveal`);
      const object = await fetchConsole<Record<string, unknown>>(path, { method: "POST", body: JSON.stringify({ reason: reason.trim() }) });
      const at = Date.now();
      onChange({ object, at: new Date(at).toISOString(), until: at + revealMinutes * 60_000 });
      setAsking(false);
      setReason("");
      // The reveal is on the object's record now: mark its data stale and redraw the server-read timeline.
      void queryClient.invalidateQueries({ queryKey: bankKeys.detail(environment, resource, id) });
      router.refresh();
    } catch (error) {
      const { title, message } = describeFailure(error);
      setFailure(`${title}: ${message}`);
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="flex flex-col items-end gap-1">
      {asking ? (
        <form
          data-testid="reveal-form"
          className="flex flex-wrap items-end justify-end gap-2 rounded border border-amber-400 bg-amber-50 p-2 dark:bg-amber-950"
          onSubmit={(event) => {
            event.preventDefault();
            void reveal();
          }}
        >
          <div>
            <label htmlFor={reasonId} className="block text-xs font-medium text-amber-950 dark:text-amber-200">
              Reason for the reveal (or ticket reference)
            </label>
            <input
              id={reasonId}
              required
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              autoFocus
              className="mt-0.5 block w-64 max-w-full rounded border border-line bg-surface px-2 py-1 text-xs text-fg"
            />
          </div>
          <button type="submit" disabled={pending || reason.trim() === ""} className={`${amber} bg-amber-100 dark:bg-amber-900`}>
            {pending ? "Revealing…" : `Reveal for ${revealMinutes} min (audited)`}
          </button>
          <button type="button" onClick={() => setAsking(false)} className={amber}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => setAsking(true)} className={`${amber} bg-amber-50 dark:bg-amber-950`}>
          Reveal masked fields (audited)
        </button>
      )}
      {failure ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
