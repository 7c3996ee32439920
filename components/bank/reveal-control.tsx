"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { useConsoleSession } from "@/components/console/providers";
import { bankApiPath, describeFailure, fetchConsole } from "@/lib/bank/browser";
import { splitIndexCopy } from "@/lib/bank/index-copy-mark";
import { bankKeys } from "@/lib/bank/query-keys";
import { resourceRoutes, type ResourceName } from "@/lib/resources/routes";
import { revealableKeys, revealFieldLabel } from "./reveal-fields";

/** One reveal as the bank proxy answered it: the fields asked for (or all), unmasked in `answer`, until `until`. */
export interface Reveal {
  fields: string[] | "all";
  answer: Record<string, unknown>;
  until: number;
}

/** What the page shows of the reveals still in time: the object with their fields unmasked. */
export interface Revealed {
  object: Record<string, unknown>;
  reveals: Reveal[];
}

/** The reveals still shown, combined: each answer masks every field but its own, so each lends only those. */
function combine(reveals: Reveal[]): Revealed | null {
  const latest = reveals.at(-1);
  if (!latest) return null;
  const object = { ...latest.answer };
  for (const reveal of reveals) {
    if (reveal.fields === "all") Object.assign(object, reveal.answer);
    else for (const field of reveal.fields) object[field] = reveal.answer[field];
  }
  return { object, reveals };
}

const amber =
  "rounded border border-amber-500 px-2.5 py-1 text-xs font-medium text-amber-950 hover:bg-amber-100 disabled:opacity-50 dark:text-amber-200 dark:hover:bg-amber-900";

function remaining(until: number, now: number) {
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * "Reveal masked fields" for roles that may: it asks why (free text or a ticket reference, required) and which fields
 * (one, several, or all as its own choice), then POSTs both; the console audits each reveal with its fields, reason
 * and expiry before it answers. Unmasked values live in this page's state only, each reveal for REVEAL_MINUTES, then
 * the page masks them again; leaving the page hides them too. The timeline (read on the server) is refreshed at once.
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
  // The object as the page shows it (read from the page's own query, redrawn with the page): which fields are masked.
  const shown = queryClient.getQueryData<Record<string, unknown>>(bankKeys.detail(environment, resource, id));
  const masked = shown ? splitIndexCopy(shown).answer : {};
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!revealed) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const first = Math.min(...revealed.reveals.map((reveal) => reveal.until));
    const hide = setTimeout(() => onChange(combine(revealed.reveals.filter((reveal) => reveal.until > first))), Math.max(0, first - Date.now()));
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
  const stillMasked = revealableKeys(resource, revealed?.object ?? masked);
  const labelOf = (field: string) => revealFieldLabel(field, masked);

  const reveal = async (fields: string[] | "all") => {
    setPending(true);
    setFailure(null);
    try {
      const path = bankApiPath(`${resourceRoutes[resource].apiPath}/${encodeURIComponent(id)}/reveal`);
      const answer = await fetchConsole<Record<string, unknown>>(path, { method: "POST", body: JSON.stringify({ reason: reason.trim(), fields }) });
      onChange(combine([...(revealed?.reveals ?? []), { fields, answer, until: Date.now() + revealMinutes * 60_000 }]));
      setAsking(false);
      setReason("");
      setChosen([]);
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
      {revealed ? (
        <div
          role="status"
          data-testid="revealed-banner"
          className="flex flex-wrap items-center gap-2 rounded border border-amber-400 bg-amber-50 px-2 py-1 text-xs text-amber-950 dark:bg-amber-950 dark:text-amber-200"
        >
          <span>
            <strong>Revealed</strong> (each reveal and its reason are in the audit log):{" "}
            {revealed.reveals.map((shownReveal, index) => (
              <span key={index} data-testid="revealed-fields">
                {index > 0 ? "; " : null}
                {shownReveal.fields === "all" ? "all masked fields" : shownReveal.fields.map(labelOf).join(", ")}, masked again in{" "}
                <span data-testid="reveal-remaining" className="tabular-nums">
                  {remaining(shownReveal.until, now)}
                </span>
              </span>
            ))}
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
      ) : null}
      {asking ? (
        <form
          data-testid="reveal-form"
          className="flex max-w-md flex-col gap-2 rounded border border-amber-400 bg-amber-50 p-2 dark:bg-amber-950"
          onSubmit={(event) => {
            event.preventDefault();
            void reveal(chosen);
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
              className="mt-0.5 block w-full rounded border border-line bg-surface px-2 py-1 text-xs text-fg"
            />
          </div>
          <fieldset className="text-xs text-amber-950 dark:text-amber-200">
            <legend className="font-medium">Fields to reveal</legend>
            <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1" data-testid="reveal-fields">
              {stillMasked.map((field) => (
                <label key={field} className="inline-flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={chosen.includes(field)}
                    onChange={(event) =>
                      setChosen((fields) => (event.target.checked ? [...fields, field] : fields.filter((other) => other !== field)))
                    }
                  />
                  {labelOf(field)}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap justify-end gap-2">
            <button
              type="submit"
              disabled={pending || reason.trim() === "" || chosen.length === 0}
              className={`${amber} bg-amber-100 dark:bg-amber-900`}
            >
              {pending ? "Revealing…" : `Reveal selected for ${revealMinutes} min (audited)`}
            </button>
            <button type="button" disabled={pending || reason.trim() === ""} onClick={() => void reveal("all")} className={amber}>
              Reveal all for {revealMinutes} min (audited)
            </button>
            <button type="button" onClick={() => setAsking(false)} className={amber}>
              Cancel
            </button>
          </div>
        </form>
      ) : stillMasked.length > 0 || !revealed ? (
        <button type="button" onClick={() => setAsking(true)} className={`${amber} bg-amber-50 dark:bg-amber-950`}>
          {revealed ? "Reveal more fields (audited)" : "Reveal masked fields (audited)"}
        </button>
      ) : null}
      {failure ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
