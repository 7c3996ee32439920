import { achOutcome, fednowOutcome, networkTransferOutcome, type AchOutcome, type FednowOutcome, type NetworkTransferOutcome } from "./magic";

// One step of each resource's life, as the network would take it. Pure: the engine reads candidates, asks these
// functions for the next state, and writes it. Outcomes come from the magic-value rules (no rule: success); the
// control API (sandbox/control/transition.ts) walks the same steps towards the outcome a test asks for.

export interface AchState {
  status: string;
  amount: string;
}

/**
 * ACH: pending -> processing -> sent. A magic amount cancels or fails it while pending, or returns it (a return code
 * in `error`) at the step that would have sent it. Terminal: sent, returned, canceled, error.
 */
export function nextAchState(transfer: AchState, outcome: AchOutcome = achOutcome(transfer)): { status: string; error: string | null } | undefined {
  if (transfer.status === "pending") {
    if (outcome.status === "canceled") return { status: "canceled", error: null };
    if (outcome.status === "error") return { status: "error", error: outcome.error };
    return { status: "processing", error: null };
  }
  if (transfer.status === "processing") {
    if (outcome.status === "returned" || outcome.status === "error") return { status: outcome.status, error: outcome.error };
    return { status: "sent", error: null };
  }
  return undefined;
}

export interface NetworkTransferState {
  status: string;
  amount: string;
  description: string | null;
  version: string;
  cross_bank: boolean;
  balanced_at: Date | null;
}

/**
 * Network transfer: pending -> sent, or error (with a message) or canceled per the magic values. A cross-bank v2
 * transfer then has its balancing wire sent one step later: balanced_at is set.
 */
export function nextNetworkTransferState(
  transfer: NetworkTransferState,
  now: Date,
  outcome: NetworkTransferOutcome = networkTransferOutcome(transfer),
): { status: string; error: string | null; balanced_at: Date | null } | undefined {
  if (transfer.status === "pending") {
    return { status: outcome.status, error: "error" in outcome ? outcome.error : null, balanced_at: null };
  }
  if (needsBalancing(transfer)) return { status: "sent", error: null, balanced_at: now };
  return undefined;
}

function needsBalancing(transfer: Pick<NetworkTransferState, "status" | "version" | "cross_bank" | "balanced_at">): boolean {
  return transfer.status === "sent" && transfer.version === "v2" && transfer.cross_bank && transfer.balanced_at === null;
}

export interface FednowState {
  status: string;
  amount: string;
  payment_type: "credit" | "debit";
  external_status: string | null;
}

export type FednowChange = {
  status: string;
  error: string | null;
  external_status: string | null;
  external_reject_reason: { code: string; message: string } | null;
};

/**
 * Instant payment: pending -> processing -> done (credit, incoming) or sent (debit, outgoing; the spec's terminal
 * rules), or error per the magic values. A sent payment's external_status then moves pending -> processing -> its
 * final value (done, or rejected with a reason, blocked, error per the magic values).
 */
export function nextFednowState(payment: FednowState, outcome: FednowOutcome = fednowOutcome(payment)): FednowChange | undefined {
  const unchanged = { error: null, external_status: null, external_reject_reason: null };
  if (payment.status === "pending") return { ...unchanged, status: "processing" };
  if (payment.status === "processing") {
    if (outcome.status === "error") return { ...unchanged, status: "error", error: outcome.error };
    return payment.payment_type === "credit" ? { ...unchanged, status: "done" } : { ...unchanged, status: "sent", external_status: "pending" };
  }
  if (payment.status === "sent" && payment.external_status === "pending") return { ...unchanged, status: "sent", external_status: "processing" };
  if (payment.status === "sent" && payment.external_status === "processing" && outcome.status === "settled") {
    return { ...unchanged, status: "sent", external_status: outcome.externalStatus, external_reject_reason: outcome.externalRejectReason };
  }
  return undefined;
}
