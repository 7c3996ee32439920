import { resourceRoutes } from "@/lib/resources/routes";
import { achReturnCodes, defaultRejectReason, defaultReturnCode, fednowRejectReasons } from "@/lib/contract/sandbox-reason-codes";
import type { MovableResource, TransitionBody, Transitions } from "./sandbox-api";

/**
 * What the Simulate menu offers for one object: each transition the sandbox says is valid from its current state
 * (docs/sandbox-control.md, "Transitions"), the detail it takes, the body it sends and the sentence its confirmation
 * says. Pure, so it is tested without a page.
 */

/** The detail a target takes: a return code (ACH returned), a reject reason (instant payment rejected), or a message. */
export type TransitionDetail = "return_code" | "reject_reason" | "message";

export interface TransitionChoice {
  /** `to` moves the status; `external_status` an instant payment's status at the receiving side. */
  field: "to" | "external_status";
  target: string;
  label: string;
  detail?: TransitionDetail;
}

const codeOptions = (codes: Readonly<Record<string, string>>) =>
  Object.entries(codes).map(([code, title]) => ({ value: code, label: `${code} ${title}` }));
export const returnCodeOptions = codeOptions(achReturnCodes);
export const rejectReasonOptions = codeOptions(fednowRejectReasons);

/** The detail each target takes and its starting value ("" leaves a message to the bank's default). */
function detailOf(resource: MovableResource, field: TransitionChoice["field"], target: string): TransitionDetail | undefined {
  if (field === "external_status") return target === "rejected" ? "reject_reason" : undefined;
  if (resource === "ach" && target === "returned") return "return_code";
  return target === "error" ? "message" : undefined;
}

export const initialDetail = (choice: TransitionChoice) =>
  choice.detail === "return_code" ? defaultReturnCode : choice.detail === "reject_reason" ? defaultRejectReason : "";

/** The menu's entries, in the sandbox's order: statuses first, then an instant payment's external statuses. */
export function transitionChoices(resource: MovableResource, answer: Transitions): TransitionChoice[] {
  const entries = (field: TransitionChoice["field"], targets: readonly string[]) =>
    targets.map((target) => ({
      field,
      target,
      label: field === "external_status" ? `External status → ${target}` : `→ ${target}`,
      detail: detailOf(resource, field, target),
    }));
  return [...entries("to", answer.valid), ...entries("external_status", answer.valid_external_status ?? [])];
}

/** The transition's body; an empty message is left out, so the bank words it as its lifecycle would. */
export function transitionBody(choice: TransitionChoice, detail: string): TransitionBody {
  const value = detail.trim();
  if (choice.field === "external_status") {
    return { external_status: choice.target, ...(choice.detail === "reject_reason" && value ? { external_reject_reason: value } : {}) };
  }
  return { to: choice.target, ...(choice.detail && value ? { error: value } : {}) };
}

/** The target as the confirmation names it, with its code: `returned (R01 Insufficient Funds)`. */
function targetWords(choice: TransitionChoice, detail: string): string {
  const value = detail.trim();
  if (choice.detail === "return_code") return `${choice.target} (${value} ${achReturnCodes[value] ?? ""})`.replace(" )", ")");
  if (choice.detail === "reject_reason") return `${choice.target} (${value} ${fednowRejectReasons[value] ?? ""})`.replace(" )", ")");
  return choice.target;
}

/** "ACH transfer", "instant payment": in a sentence, lower case unless it starts with an acronym. */
const singular = (resource: MovableResource) => {
  const name = resourceRoutes[resource].singular;
  return /^[A-Z]{2}/.test(name) ? name : name.toLowerCase();
};

/** "Move ACH transfer ach_… from pending to returned (R01 Insufficient Funds) now?" */
export function transitionQuestion(resource: MovableResource, id: string, from: string, choice: TransitionChoice, detail: string): string {
  const what = choice.field === "external_status" ? "the external status of" : "";
  return `Move ${what ? `${what} ` : ""}${singular(resource)} ${id} from ${from} to ${targetWords(choice, detail)} now?`;
}

/** What the bank does besides, said under the question. */
export function transitionEffect(resource: MovableResource, choice: TransitionChoice): string {
  if (resource === "webhook") {
    return choice.target === "error"
      ? "The bank stops it as its error threshold would: its pending deliveries are paused until it is enabled again, and webhook.update is sent."
      : "The bank disables it: its error is cleared, its pending deliveries are paused until it is enabled again, and webhook.update is sent.";
  }
  return `The bank fires the events its lifecycle would: it takes the lifecycle's own steps to get there, through any state between, each sending one ${resource}.update.`;
}
