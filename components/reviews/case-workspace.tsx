"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { addReviewNote, markReviewItem, proposeReviewDecision, resolveReviewDecision } from "@/lib/actions/reviews";
import { caseStateLabels, decisionLabels, decisions, markLabels, marks, reasonCodes, textLimits, type Decision } from "@/lib/reviews/codes";
import type { CaseView, ReviewDecision } from "@/lib/reviews/store";
import { CopyButton } from "@/components/bank/copy-button";
import { Timestamp } from "@/components/bank/value";
import { AssignControls } from "./assign-controls";
import { ReviewForm } from "./review-form";

const control = "block w-full rounded-md border border-line bg-surface px-2 py-1.5 text-sm";
const stateTone = {
  open: "border-line bg-surface-2 text-fg",
  awaiting_second_review: "border-amber-400 bg-amber-50 text-amber-950 dark:bg-amber-950 dark:text-amber-200",
  decided: "border-emerald-400 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
} as const;

export const reasonLabel = (decision: Decision, code: string) => reasonCodes[decision][code] ?? code;

/** What the signed-in reviewer may do here (the server checks each again). */
export interface Viewer {
  id: string;
  canDecide: boolean;
  canConfirm: boolean;
  canUnassignAnyone: boolean;
}

/** The case panel's body: assignment, the pending decision, checklist, notes, proposing and the decisions so far. */
export function CaseWorkspace({ review, viewer }: { review: CaseView; viewer: Viewer }) {
  const { applicationId } = review;
  const working = viewer.canDecide && review.assigneeId === viewer.id && review.state === "open";
  const pending = review.decisions.find((decision) => decision.state === "proposed") ?? null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span data-testid="case-state" className={`rounded border px-2 py-0.5 text-xs font-semibold ${stateTone[review.state]}`}>
          {caseStateLabels[review.state]}
        </span>
        {review.state === "decided" && review.decision ? (
          <span data-testid="case-decision">
            {decisionLabels[review.decision]} · {reasonLabel(review.decision, review.reasonCode ?? "")}
          </span>
        ) : null}
        <span className="text-muted">
          Assignee: <span data-testid="case-assignee">{review.assigneeEmail ?? "nobody"}</span>
        </span>
        {viewer.canDecide && review.state !== "decided" ? (
          <AssignControls
            applicationId={applicationId}
            assigneeId={review.assigneeId}
            assigneeEmail={review.assigneeEmail}
            userId={viewer.id}
            canUnassignAnyone={viewer.canUnassignAnyone}
          />
        ) : null}
      </div>

      {pending ? <PendingDecision applicationId={applicationId} pending={pending} viewer={viewer} /> : null}

      <section aria-labelledby="checklist-title">
        <h3 id="checklist-title" className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">
          Checklist
        </h3>
        <ul className="divide-y divide-line rounded-md border border-line" data-testid="checklist">
          {review.items.map((item) => (
            <li
              key={item.item}
              data-testid="checklist-item"
              data-item={item.item}
              className="grid items-start gap-2 p-2 text-sm md:grid-cols-[minmax(0,1fr)_auto]"
            >
              <div className="min-w-0">
                <span className="font-medium break-words">{item.label}</span>
                <span className="block text-xs text-muted" data-testid="checklist-mark">
                  {item.mark ? (
                    <>
                      {markLabels[item.mark]} · {item.markedByEmail} · <Timestamp value={item.markedAt!} compact />
                    </>
                  ) : (
                    "Not checked yet"
                  )}
                </span>
                {item.notes.length ? (
                  <ol className="mt-1 space-y-0.5 text-xs" data-testid="checklist-notes">
                    {item.notes.map((note) => (
                      <li key={note.id}>
                        <span className="text-muted">
                          {note.authorEmail} · <Timestamp value={note.at} compact />:
                        </span>{" "}
                        <span className="break-words whitespace-pre-wrap">{note.text}</span>
                      </li>
                    ))}
                  </ol>
                ) : null}
              </div>
              {working ? (
                <ReviewForm
                  action={markReviewItem}
                  hidden={{ applicationId, item: item.item }}
                  className="grid grid-cols-[9rem_minmax(0,1fr)_auto] items-center gap-1 md:w-[26rem]"
                  testId="checklist-form"
                >
                  {(busy) => (
                    <>
                      <label className="sr-only" htmlFor={`mark-${item.item}`}>
                        Mark {item.label}
                      </label>
                      {/* Keyed by the saved mark: a form action resets its fields to their defaults once it is done,
                          and a mounted select keeps its first defaultValue, so without a fresh one the control would
                          show the mark it started with instead of the one saved. */}
                      <select
                        key={`${item.mark ?? "none"} ${item.markedAt ?? ""}`}
                        id={`mark-${item.item}`}
                        name="mark"
                        defaultValue={item.mark ?? "verified"}
                        className="w-full rounded-md border border-line bg-surface px-1.5 py-1 text-xs"
                      >
                        {marks.map((mark) => (
                          <option key={mark} value={mark}>
                            {markLabels[mark]}
                          </option>
                        ))}
                      </select>
                      <label className="sr-only" htmlFor={`note-${item.item}`}>
                        Note on {item.label}
                      </label>
                      <input
                        id={`note-${item.item}`}
                        name="note"
                        placeholder="Add a note (optional)"
                        maxLength={textLimits.itemNote}
                        className="min-w-0 rounded-md border border-line bg-surface px-1.5 py-1 text-xs"
                      />
                      <Button type="submit" size="compact" variant="secondary" disabled={busy}>
                        Save
                      </Button>
                    </>
                  )}
                </ReviewForm>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      <Documents ids={review.documentIds} />

      <section aria-labelledby="notes-title">
        <h3 id="notes-title" className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">
          Notes <span className="font-normal tracking-normal normal-case">· kept as written, never edited or deleted</span>
        </h3>
        {review.notes.length === 0 ? (
          <p className="text-sm text-muted">No notes yet.</p>
        ) : (
          <ol className="space-y-1 text-sm" data-testid="case-notes">
            {review.notes.map((note) => (
              <li key={note.id} className="rounded-md border border-line p-2">
                <span className="block text-xs text-muted">
                  {note.authorEmail} · <Timestamp value={note.at} compact />
                </span>
                <span className="break-words whitespace-pre-wrap">{note.text}</span>
              </li>
            ))}
          </ol>
        )}
        {viewer.canDecide ? (
          <ReviewForm action={addReviewNote} hidden={{ applicationId }} className="mt-2 flex flex-col items-start gap-2 sm:flex-row sm:items-end">
            {(busy) => (
              <>
                <label htmlFor="case-note" className="sr-only">
                  New note
                </label>
                <textarea
                  id="case-note"
                  name="text"
                  required
                  maxLength={textLimits.note}
                  rows={2}
                  placeholder="Add a note"
                  className={`${control} min-w-0 sm:flex-1`}
                />
                <Button type="submit" size="compact" variant="secondary" disabled={busy}>
                  Add note
                </Button>
              </>
            )}
          </ReviewForm>
        ) : null}
      </section>

      {working ? <ProposeForm applicationId={applicationId} /> : null}

      {review.decisions.length ? (
        <section aria-labelledby="decisions-title">
          <h3 id="decisions-title" className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">
            Decisions
          </h3>
          <ol className="space-y-1 text-sm" data-testid="case-decisions">
            {[...review.decisions].reverse().map((decision) => (
              <li key={decision.id} className="rounded-md border border-line p-2">
                <span className="font-medium">
                  {decisionLabels[decision.decision]} · {reasonLabel(decision.decision, decision.reasonCode)}
                </span>{" "}
                <span className="text-xs text-muted">
                  proposed by {decision.proposedByEmail} <Timestamp value={decision.proposedAt} compact />
                  {decision.resolvedByEmail ? (
                    <>
                      {" "}
                      · {decision.state} by {decision.resolvedByEmail} <Timestamp value={decision.resolvedAt!} compact />
                    </>
                  ) : (
                    " · awaiting second review"
                  )}
                </span>
                <span className="block break-words whitespace-pre-wrap">{decision.note}</span>
                {decision.resolutionNote ? (
                  <span className="block break-words whitespace-pre-wrap text-muted">Second review: {decision.resolutionNote}</span>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}

/** The application's documents: the bank's API names them by id only and serves no file, so the ids are to copy. */
function Documents({ ids }: { ids: string[] }) {
  return (
    <section aria-labelledby="documents-title" data-testid="case-documents">
      <h3 id="documents-title" className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">
        Documents
      </h3>
      <p className="text-xs text-muted">The bank&apos;s API gives document ids only; open them in the bank&apos;s document store.</p>
      {ids.length === 0 ? (
        <p className="mt-1 text-sm text-muted">The application names no documents.</p>
      ) : (
        <ul className="mt-1 divide-y divide-line rounded-md border border-line text-sm">
          {ids.map((id) => (
            <li key={id} data-testid="case-document" className="flex items-center justify-between gap-2 px-2 py-1">
              <span className="font-mono text-xs [overflow-wrap:anywhere]">{id}</span>
              <CopyButton value={id} label="Copy document id" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PendingDecision({ applicationId, pending, viewer }: { applicationId: string; pending: ReviewDecision; viewer: Viewer }) {
  const own = pending.proposedById === viewer.id;
  return (
    <div
      role="status"
      data-testid="awaiting-second-review"
      className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-200"
    >
      <p>
        <strong>Awaiting second review</strong>: {pending.proposedByEmail} proposes <strong>{decisionLabels[pending.decision]}</strong> ·{" "}
        {reasonLabel(pending.decision, pending.reasonCode)}
      </p>
      <p className="mt-1 break-words whitespace-pre-wrap">{pending.note}</p>
      {own ? (
        <p className="mt-1 text-xs">You proposed it: a different reviewer must confirm it or send it back.</p>
      ) : viewer.canConfirm ? (
        <ReviewForm
          action={resolveReviewDecision}
          hidden={{ applicationId, decisionId: String(pending.id) }}
          className="mt-2 flex flex-col items-start gap-2 sm:flex-row sm:flex-wrap sm:items-end"
          testId="second-review-form"
        >
          {(busy) => (
            <>
              <label htmlFor="resolution-note" className="sr-only">
                Second review note
              </label>
              <textarea
                id="resolution-note"
                name="note"
                rows={2}
                maxLength={textLimits.note}
                placeholder="Note (required to send back)"
                className={`${control} min-w-0 sm:flex-1`}
              />
              <Button type="submit" name="outcome" value="confirm" size="compact" disabled={busy}>
                Confirm decision
              </Button>
              <Button type="submit" name="outcome" value="return" size="compact" variant="secondary" disabled={busy}>
                Send back
              </Button>
            </>
          )}
        </ReviewForm>
      ) : null}
    </div>
  );
}

function ProposeForm({ applicationId }: { applicationId: string }) {
  const [decision, setDecision] = useState<Decision>("approve");
  return (
    <section aria-labelledby="propose-title">
      <h3 id="propose-title" className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">
        Propose a decision
      </h3>
      <ReviewForm action={proposeReviewDecision} hidden={{ applicationId }} className="grid gap-2 sm:grid-cols-2" testId="propose-form">
        {(busy) => (
          <>
            <div>
              <label htmlFor="propose-decision" className="block text-sm font-medium text-muted">
                Decision
              </label>
              <select
                id="propose-decision"
                name="decision"
                value={decision}
                onChange={(event) => setDecision(event.target.value as Decision)}
                className={control}
              >
                {decisions.map((value) => (
                  <option key={value} value={value}>
                    {decisionLabels[value]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="propose-reason" className="block text-sm font-medium text-muted">
                Reason code
              </label>
              <select id="propose-reason" name="reasonCode" key={decision} className={control}>
                {Object.entries(reasonCodes[decision]).map(([code, label]) => (
                  <option key={code} value={code}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <div className="sm:col-span-2">
              <label htmlFor="propose-note" className="block text-sm font-medium text-muted">
                Note (required)
              </label>
              <textarea id="propose-note" name="note" required rows={3} maxLength={textLimits.note} className={control} />
            </div>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={busy}>
                Propose for second review
              </Button>
            </div>
          </>
        )}
      </ReviewForm>
    </section>
  );
}
