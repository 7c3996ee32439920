import { idPrefixes } from "@/lib/contract/names";
import { checklistItemLabel, decisionLabels, isDecision, isMark, reasonCodes, type Mark, type ReviewKind } from "./codes";

/**
 * A review step in words, for people (the case panel's confirmations, an application's timeline, the case record):
 * never the audit trail's action codes (`review.checklist.mark`) or item keys (`date_of_birth`). Client-safe.
 */
export const reviewActionLabels: Readonly<Record<string, string>> = {
  "review.assign": "Case assigned",
  "review.unassign": "Case unassigned",
  "review.checklist.mark": "Checklist item marked",
  "review.note.add": "Case note added",
  "review.decision.propose": "Decision proposed for second review",
  "review.decision.confirm": "Decision confirmed by a second reviewer",
  "review.decision.return": "Decision sent back by the second reviewer",
  "review.record.download": "Case record downloaded",
};

const markPhrases: Record<Mark, string> = { verified: "as verified", discrepancy: "as a discrepancy", not_applicable: "as not applicable" };

/** The kind of application an id names, by its prefix. */
export function applicationKindOf(id: string): ReviewKind {
  return id.startsWith(idPrefixes.business_application) ? "business_application" : "person_application";
}

/** "Date of birth marked as a discrepancy: passport shows 1980" (the note only when given and `withNote`). */
export function markSentence(kind: ReviewKind, item: string, mark: Mark, note: string | null, withNote = true): string {
  const sentence = `${checklistItemLabel(kind, item)} marked ${markPhrases[mark]}`;
  return withNote && note ? `${sentence}: ${note}` : sentence;
}

const reasonOf = (decision: string, code: unknown) =>
  isDecision(decision) && typeof code === "string" ? `${decisionLabels[decision]} · ${reasonCodes[decision][code] ?? code}` : null;

/**
 * A review audit record in one sentence, from its action and its `after` (what lib/reviews/actions.ts records), or null
 * for an action that is not a review step. Free text (notes) only with `withText`: the roles that read the audit log.
 */
export function reviewActionWords(kind: ReviewKind, action: string, after: unknown, withText: boolean): string | null {
  const label = reviewActionLabels[action];
  if (!label) return null;
  const value = (after ?? {}) as Record<string, unknown>;
  if (action === "review.checklist.mark" && typeof value.item === "string" && isMark(value.mark))
    return markSentence(kind, value.item, value.mark, typeof value.note === "string" ? value.note : null, withText);
  if (action === "review.decision.propose" || action === "review.decision.confirm" || action === "review.decision.return") {
    const reason = typeof value.decision === "string" ? reasonOf(value.decision, value.reasonCode) : null;
    if (reason) return `${label}: ${reason}`;
  }
  if (action === "review.record.download" && typeof value.format === "string") return `${label} (${value.format.toUpperCase()})`;
  return label;
}
