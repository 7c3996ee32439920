"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { useConsoleSession } from "@/components/console/providers";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SelectField, TextField } from "@/components/ui/field";
import { ConsoleApiError } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import { isConsoleWebhook } from "@/lib/index/console-webhooks";
import type { MovableResource } from "./sandbox-api";
import { useSimulateTransition } from "./sandbox-mutations";
import { useTransitions } from "./sandbox-queries";
import {
  initialDetail,
  rejectReasonOptions,
  returnCodeOptions,
  transitionBody,
  transitionChoices,
  transitionEffect,
  transitionQuestion,
  type TransitionChoice,
} from "./transition-options";

/** The detail a transition takes, inside its confirmation: a code to pick, or a message (empty: the bank's own). */
function DetailField({ choice, value, onChange }: { choice: TransitionChoice; value: string; onChange(value: string): void }) {
  if (choice.detail === "return_code") {
    return <SelectField label="Return code" value={value} onChange={(change) => onChange(change.target.value)} options={returnCodeOptions} />;
  }
  if (choice.detail === "reject_reason") {
    return <SelectField label="Reject reason" value={value} onChange={(change) => onChange(change.target.value)} options={rejectReasonOptions} />;
  }
  if (choice.detail === "message") {
    return (
      <TextField
        label="Error message (optional)"
        value={value}
        maxLength={500}
        onChange={(change) => onChange(change.target.value)}
        hint="Left empty, the bank words it as its lifecycle (or a webhook's error threshold) would."
      />
    );
  }
  return null;
}

/**
 * "Simulate" on the page of an ACH transfer, network transfer, instant payment or webhook in the sandbox: a menu of
 * the transitions valid from the object's current state, read from the sandbox when it opens; each asks in the one
 * confirm dialog (with the code or message it takes), then moves the object now. The page's object, lists and
 * Timeline are refreshed (use-bank-action.ts), and the index's new state arrives by the live feed.
 * Rendered only for roles holding `sandbox:control` while the sandbox is active (detail-extras.tsx decides); not on
 * the console's own subscriptions, whose error would stop the index's notifications.
 */
export function SimulateMenu(props: DetailExtraProps & { resource: MovableResource }) {
  if (props.resource === "webhook" && isConsoleWebhook(props.object, props.context.consoleAddress ?? null)) return null;
  return <Menu id={props.id} resource={props.resource} />;
}

function Menu({ id, resource }: { id: string; resource: MovableResource }) {
  const { environment } = useConsoleSession();
  const queryClient = useQueryClient();
  const menuId = useId();
  const box = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<TransitionChoice | null>(null);
  const [detail, setDetail] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const transitions = useTransitions(resource, id, open || chosen !== null);
  const action = useSimulateTransition(resource, id, () => {
    setDone(chosen && (chosen.field === "external_status" ? `external status ${chosen.target}` : chosen.target));
    setChosen(null);
  });

  // The menu closes on Escape or a click elsewhere, as menus do.
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (box.current && !box.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const answer = transitions.data;
  const choices = answer ? transitionChoices(resource, answer) : [];
  const conflict = action.error instanceof ConsoleApiError && action.error.status === 409;

  return (
    <div ref={box} className="relative flex flex-col items-start gap-1 sm:items-end" data-testid="simulate">
      <Button
        type="button"
        variant="secondary"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          setDone(null);
          setOpen(!open);
        }}
      >
        Simulate
      </Button>
      {open ? (
        <div
          id={menuId}
          data-testid="simulate-menu"
          onKeyDown={(event) => {
            if (event.key === "Escape") setOpen(false);
          }}
          className="absolute top-full left-0 z-20 mt-1 w-72 space-y-2 rounded-md border border-line bg-surface p-2 text-sm shadow-lg sm:right-0 sm:left-auto"
        >
          <p className="text-xs text-muted">
            Sandbox: move it now{answer ? `, from ${answer.status}` : ""}. The bank fires the events its lifecycle would.
          </p>
          {transitions.isPending ? <p className="text-muted">Reading the valid transitions…</p> : null}
          {transitions.error ? <ActionError error={transitions.error} /> : null}
          {answer && choices.length === 0 ? (
            <p data-testid="simulate-none">No transition leads on from {answer.status}: it is a final state.</p>
          ) : null}
          {choices.length > 0 ? (
            <ul className="space-y-1">
              {choices.map((choice) => (
                <li key={`${choice.field}:${choice.target}`}>
                  <button
                    type="button"
                    className="w-full rounded px-2 py-1 text-left hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-focus"
                    onClick={() => {
                      action.reset();
                      setDetail(initialDetail(choice));
                      setChosen(choice);
                      setOpen(false);
                    }}
                  >
                    {choice.label}
                    {choice.detail === "return_code" ? " (with a return code)" : choice.detail === "reject_reason" ? " (with a reason)" : ""}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {done ? (
        <p role="status" data-testid="simulate-done" className="max-w-xs text-xs text-muted sm:text-right">
          Moved to {done}. The status and the Timeline follow as the bank&apos;s events arrive.
        </p>
      ) : null}
      {chosen ? (
        <ConfirmDialog
          open
          title="Simulate a transition"
          confirmLabel="Move it now"
          tone="primary"
          pending={action.isPending}
          error={
            action.error ? (
              <div className="space-y-1">
                <ActionError error={action.error} />
                {conflict && answer ? (
                  <p data-testid="simulate-valid-now" className="text-sm">
                    Valid from {answer.status} now: {choices.map((choice) => choice.label).join(", ") || "none (a final state)"}.
                  </p>
                ) : null}
              </div>
            ) : null
          }
          onConfirm={() =>
            action.mutate(transitionBody(chosen, detail), {
              // The object moved meanwhile: read its state and valid transitions again, shown in the dialog and the menu.
              onError: (error) => {
                if (error instanceof ConsoleApiError && error.status === 409) {
                  void queryClient.invalidateQueries({ queryKey: bankKeys.detail(environment, resource, id) });
                }
              },
            })
          }
          onCancel={() => setChosen(null)}
        >
          <DetailField choice={chosen} value={detail} onChange={setDetail} />
          <p data-testid="simulate-question">{transitionQuestion(resource, id, answer?.status ?? "its current state", chosen, detail)}</p>
          <p className="text-muted">{transitionEffect(resource, chosen)}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
