"use client";

import { useState } from "react";
import { bankApiPath, describeFailure, fetchConsole } from "@/lib/bank/browser";
import { resources, type ResourceName } from "@/lib/resources";

export interface Revealed {
  object: Record<string, unknown>;
  at: string;
}

/**
 * "Reveal masked fields" for roles that may (a POST, audited by the console before it answers); the unmasked object
 * is kept in this page's state only, so leaving the page hides it again. Other roles are told the data is masked.
 */
export function RevealControl({ resource, id, canReveal, revealed, onChange }: { resource: ResourceName; id: string; canReveal: boolean; revealed: Revealed | null; onChange(next: Revealed | null): void }) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!canReveal) {
    return <p className="text-xs text-muted" data-testid="masked-note">Some fields are masked for your role.</p>;
  }
  if (revealed) {
    return (
      <div role="status" data-testid="revealed-banner" className="flex items-center gap-2 rounded border border-amber-400 bg-amber-50 px-2 py-1 text-xs text-amber-950 dark:bg-amber-950 dark:text-amber-200">
        <span>
          <strong>Masked fields revealed</strong>: your reveal is in the audit log.
        </span>
        <button type="button" onClick={() => onChange(null)} className="rounded border border-amber-500 px-1.5 py-0.5 font-medium hover:bg-amber-100 dark:hover:bg-amber-900">
          Hide again
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          setFailure(null);
          try {
            const object = await fetchConsole<Record<string, unknown>>(bankApiPath(`${resources[resource].apiPath}/${encodeURIComponent(id)}/reveal`), { method: "POST" });
            onChange({ object, at: new Date().toISOString() });
          } catch (error) {
            const { title, message } = describeFailure(error);
            setFailure(`${title}: ${message}`);
          } finally {
            setPending(false);
          }
        }}
        className="rounded border border-amber-500 bg-amber-50 px-2.5 py-1 text-xs font-medium text-amber-950 hover:bg-amber-100 disabled:opacity-50 dark:bg-amber-950 dark:text-amber-200"
      >
        {pending ? "Revealing…" : "Reveal masked fields (audited)"}
      </button>
      {failure ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
