import type { FulfillmentStatus } from "@/lib/contract";

/**
 * Magic values: inputs that force an outcome on demand, so that clients and tests can reach every state.
 * One table per resource; the lifecycle engine decides every outcome through these rules (an object that matches no
 * rule succeeds), and the seed generator picks amounts through them, so seeded failures obey the same rules.
 * The rules are documented in docs/sandbox-data.md (a test keeps that table in step with this file).
 */

export type AchOutcome = { status: "sent" } | { status: "returned"; error: string } | { status: "error"; error: string } | { status: "canceled" };

export type NetworkTransferOutcome = { status: "sent" } | { status: "error"; error: string } | { status: "canceled" };

export type FednowExternalStatus = "done" | "rejected" | "blocked" | "error";
export type FednowOutcome =
  /** Credit (incoming): done. Debit (outgoing): sent, external_status ending as given. */
  | { status: "settled"; externalStatus: FednowExternalStatus; externalRejectReason: { code: string; message: string } | null }
  | { status: "error"; error: string };

interface MagicRule<Input, Outcome> {
  /** What triggers the rule, as documented. */
  trigger: string;
  /** For a rule about the amount: the cents that trigger it (the seed builds its failing amounts from these). */
  cents?: string;
  matches(input: Input): boolean;
  outcome: Outcome;
}

/** The two digits after the decimal point of a money string. */
export function centsOf(amount: string): string {
  return amount.slice(-2);
}

/** A rule triggered by an amount's cents, and optionally by a further condition its trigger names first. */
function amountRule<Input extends { amount: string }, Outcome>(
  cents: string,
  outcome: Outcome,
  also?: { label: string; holds(input: Input): boolean },
): MagicRule<Input, Outcome> {
  return {
    trigger: `${also ? `${also.label} with ` : ""}amount ending in .${cents}`,
    cents,
    matches: (input) => centsOf(input.amount) === cents && (also?.holds(input) ?? true),
    outcome,
  };
}

export const achRules: MagicRule<{ amount: string }, AchOutcome>[] = [
  amountRule("13", { status: "returned", error: "R01 Insufficient Funds" }),
  amountRule("14", { status: "returned", error: "R02 Account Closed" }),
  amountRule("15", { status: "returned", error: "R03 No Account/Unable to Locate Account" }),
  amountRule("16", { status: "returned", error: "R10 Customer Advises Originator is Not Known and/or Not Authorized" }),
  amountRule("66", { status: "error", error: "Rejected by the ACH operator: invalid receiving DFI routing number" }),
  amountRule("77", { status: "canceled" }),
];

export const networkTransferRules: MagicRule<{ amount: string; description: string | null }, NetworkTransferOutcome>[] = [
  {
    trigger: 'description containing "FAIL" (upper case)',
    matches: (input) => input.description?.includes("FAIL") ?? false,
    outcome: { status: "error", error: "Transfer failed: forced by the FAIL magic description" },
  },
  amountRule("13", { status: "error", error: "Insufficient funds in the originating account" }),
  amountRule("66", { status: "error", error: "Receiving account is closed" }),
  amountRule("77", { status: "canceled" }),
];

type FednowInput = { amount: string; payment_type: "credit" | "debit" };
const debitOnly = { label: "debit", holds: (input: FednowInput) => input.payment_type === "debit" };

export const fednowRules: MagicRule<FednowInput, FednowOutcome>[] = [
  amountRule(
    "13",
    { status: "settled", externalStatus: "rejected", externalRejectReason: { code: "AC04", message: "Closed account number" } },
    debitOnly,
  ),
  amountRule(
    "14",
    { status: "settled", externalStatus: "rejected", externalRejectReason: { code: "AM04", message: "Insufficient funds" } },
    debitOnly,
  ),
  amountRule("15", { status: "settled", externalStatus: "blocked", externalRejectReason: null }, debitOnly),
  amountRule("16", { status: "settled", externalStatus: "error", externalRejectReason: null }, debitOnly),
  amountRule("66", { status: "error", error: "Payment failed: the FedNow Service did not accept the message (timeout)" }),
];

/** Card id suffixes that force the fulfillment status of a provisioning simulation that does not name one. */
export const cardIdSuffixes = [
  ["_red", "decision_red"],
  ["_yellow", "decision_yellow"],
  ["_rejected", "rejected"],
  ["_green", "decision_green"],
] as const satisfies ReadonlyArray<readonly [string, FulfillmentStatus]>;

export const cardRules: MagicRule<{ cardId: string }, FulfillmentStatus>[] = cardIdSuffixes.map(([suffix, status]) => ({
  trigger: `card id ending in ${suffix}`,
  matches: (input: { cardId: string }) => input.cardId.endsWith(suffix),
  outcome: status,
}));

function firstMatch<Input, Outcome>(rules: MagicRule<Input, Outcome>[], input: Input): Outcome | undefined {
  return rules.find((rule) => rule.matches(input))?.outcome;
}

export function achOutcome(transfer: { amount: string }): AchOutcome {
  return firstMatch(achRules, transfer) ?? { status: "sent" };
}

export function networkTransferOutcome(transfer: { amount: string; description: string | null }): NetworkTransferOutcome {
  return firstMatch(networkTransferRules, transfer) ?? { status: "sent" };
}

export function fednowOutcome(payment: FednowInput): FednowOutcome {
  return firstMatch(fednowRules, payment) ?? { status: "settled", externalStatus: "done", externalRejectReason: null };
}

/** The fulfillment status a card's id forces, or undefined when the id carries no magic suffix. */
export function forcedFulfillmentStatus(cardId: string): FulfillmentStatus | undefined {
  return firstMatch(cardRules, { cardId });
}

/**
 * The fulfillment status a provisioning simulation ends with: the one the request names, else the one the card id
 * forces, else `provisioned` (the happy path).
 */
export function provisioningFulfillmentStatus(cardId: string, requested?: FulfillmentStatus): FulfillmentStatus {
  return requested ?? forcedFulfillmentStatus(cardId) ?? "provisioned";
}

/** Cents that trigger some rule of some resource: the seed avoids them for objects meant to succeed. */
export const magicCents: ReadonlySet<string> = new Set(
  [...achRules, ...networkTransferRules, ...fednowRules].flatMap((rule) => (rule.cents ? [rule.cents] : [])),
);

/** Every rule as a documentation row: resource, trigger, outcome. */
export function magicValueRows(): Array<{ resource: string; trigger: string; outcome: string }> {
  const describe = (outcome: AchOutcome | NetworkTransferOutcome | FednowOutcome | FulfillmentStatus): string => {
    if (typeof outcome === "string") return `fulfillment status ${outcome}`;
    if (outcome.status === "settled") {
      const reason = outcome.externalRejectReason ? `, external_reject_reason ${outcome.externalRejectReason.code}` : "";
      return `external_status ${outcome.externalStatus}${reason}`;
    }
    return "error" in outcome ? `${outcome.status}: ${outcome.error}` : outcome.status;
  };
  const rows = (resource: string, rules: MagicRule<never, AchOutcome | NetworkTransferOutcome | FednowOutcome | FulfillmentStatus>[]) =>
    rules.map((rule) => ({ resource, trigger: rule.trigger, outcome: describe(rule.outcome) }));
  return [
    ...rows("ach", achRules),
    ...rows("network_transfer", networkTransferRules),
    ...rows("fednow", fednowRules),
    ...rows("card (provisioning simulation)", cardRules),
  ];
}
