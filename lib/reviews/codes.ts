import { idPrefixes } from "@/lib/contract/names";

/**
 * The fixed vocabulary of a compliance review (docs/reviews.md lists the same): decisions, their reason codes, and the
 * checklist items. Safe for client components: no server imports.
 */

export const decisions = ["approve", "decline", "request_information"] as const;
export type Decision = (typeof decisions)[number];

export const decisionLabels: Record<Decision, string> = {
  approve: "Approve",
  decline: "Decline",
  request_information: "Request information",
};

/** Per decision, the reason codes a reviewer may give (and nothing else). */
export const reasonCodes: Record<Decision, Readonly<Record<string, string>>> = {
  approve: {
    all_verified: "Every check verified",
    discrepancy_resolved: "Discrepancies resolved with evidence (see notes)",
  },
  decline: {
    identity_not_verified: "Identity could not be verified",
    document_suspected_fraudulent: "A document is suspected fraudulent or altered",
    sanctions_or_watchlist_match: "Sanctions or watchlist match confirmed",
    high_risk: "Risk outside the bank's appetite",
    ownership_not_verified: "Beneficial ownership could not be verified",
  },
  request_information: {
    document_missing: "A required document is missing or unreadable",
    address_not_verified: "Address could not be verified",
    identification_mismatch: "Identification number does not match the records",
    ownership_unclear: "Ownership or control persons unclear",
  },
};

export function isDecision(value: unknown): value is Decision {
  return typeof value === "string" && (decisions as readonly string[]).includes(value);
}

export function isReasonCode(decision: Decision, code: unknown): code is string {
  return typeof code === "string" && Object.hasOwn(reasonCodes[decision], code);
}

export const marks = ["verified", "discrepancy", "not_applicable"] as const;
export type Mark = (typeof marks)[number];
export const markLabels: Record<Mark, string> = { verified: "Verified", discrepancy: "Discrepancy", not_applicable: "Not applicable" };
export const isMark = (value: unknown): value is Mark => typeof value === "string" && (marks as readonly string[]).includes(value);

export const reviewKinds = ["person_application", "business_application"] as const;
/** A person or business application's id (lib/contract/primitives.ts idPrefixes). */
export const applicationIdPattern = new RegExp(`^(${idPrefixes.person_application}|${idPrefixes.business_application})[A-Za-z0-9_-]{1,64}$`);
export type ReviewKind = (typeof reviewKinds)[number];
export const isReviewKind = (value: unknown): value is ReviewKind => typeof value === "string" && (reviewKinds as readonly string[]).includes(value);
export const kindLabels: Record<ReviewKind, string> = { person_application: "Person", business_application: "Business" };

export const caseStates = ["open", "awaiting_second_review", "decided"] as const;
export type CaseState = (typeof caseStates)[number];
export const caseStateLabels: Record<CaseState, string> = { open: "Open", awaiting_second_review: "Awaiting second review", decided: "Decided" };

const personItems: Record<string, string> = {
  identity: "Identity (name matches documents)",
  date_of_birth: "Date of birth",
  address: "Address",
  identification_number: "Identification number",
  documents: "Documents",
};
const businessItems: Record<string, string> = {
  business_registration: "Business registration",
  identification_number: "Identification number (EIN / TIN)",
  address: "Address",
  documents: "Documents",
};

/** A checklist item's words by its key, as the case panel names it ("date_of_birth" → "Date of birth"). */
export function checklistItemLabel(kind: ReviewKind, item: string): string {
  const fixed = (kind === "person_application" ? personItems : businessItems)[item];
  if (fixed) return fixed;
  return item.startsWith("owner:") ? `Beneficial owner ${item.slice("owner:".length)}` : item;
}

export interface ChecklistItem {
  item: string;
  label: string;
}

/** What a reviewer verifies of an application: fixed items, plus each beneficial owner of a business. */
export function checklistItems(kind: ReviewKind, application: Record<string, unknown> | null): ChecklistItem[] {
  const fixed = Object.entries(kind === "person_application" ? personItems : businessItems).map(([item, label]) => ({ item, label }));
  if (kind === "person_application") return fixed;
  const owners = Array.isArray(application?.person_applications) ? (application.person_applications as Array<Record<string, unknown>>) : [];
  return [
    ...fixed,
    ...owners
      .filter((owner) => typeof owner.id === "string")
      .map((owner) => ({
        item: `owner:${owner.id as string}`,
        label: `Beneficial owner ${owner.id as string}${typeof owner.ownership_percentage === "number" ? ` (${owner.ownership_percentage}%)` : ""}`,
      })),
  ];
}

/** The age colour of a case against the SLA: within three quarters of it, within it, or over it. */
export type SlaTone = "ok" | "due" | "over";
export function slaTone(ageHours: number, slaHours: number): SlaTone {
  if (ageHours >= slaHours) return "over";
  return ageHours >= slaHours * 0.75 ? "due" : "ok";
}

/** Limits of free text a reviewer enters. */
export const textLimits = { note: 4000, itemNote: 1000, reason: 500 } as const;
