import { achReturnCodeOf } from "./failure-codes";
import { achReturnCodes, fednowRejectReasons } from "./sandbox-reason-codes";

export { achReturnCodeOf } from "./failure-codes";

/**
 * Why a transfer or payment did not go through, in plain words, and what an agent can do next: the one table of codes
 * and meanings (docs/return-codes.md prints it; a test keeps the two equal). The codes and their official titles are
 * ./sandbox-reason-codes.ts, shared with the sandbox bank and the Simulate menu; this adds what they mean to a person.
 * Plain data, client-safe.
 */

export interface ReasonWords {
  /** What happened, as an agent would tell the customer. */
  meaning: string;
  /** What the agent can do next. */
  nextStep: string;
}

export interface ExplainedReason extends ReasonWords {
  /** The network's code (`R01`, `AC04`), null when the failure carries none (a network transfer's error text). */
  code: string | null;
  /** The code's official title, or the bank's own words when there is no code. */
  title: string;
}

/** What each code means and what to do next, written as `code: [meaning, next step]`, read as ReasonWords. */
function reasonWords(table: Readonly<Record<string, readonly [meaning: string, nextStep: string]>>): Readonly<Record<string, ReasonWords>> {
  return Object.fromEntries(Object.entries(table).map(([code, [meaning, nextStep]]) => [code, { meaning, nextStep }]));
}

const contactCustomer = "Contact the customer for a new account and authorization before sending again.";

/** NACHA return codes (ACH transfers, `error` = "<code> <title>"). */
export const achReturnWords = reasonWords({
  R01: [
    "The receiving account did not have enough money to cover the debit.",
    "The debit may be sent again up to two more times within 180 days, ideally after the customer's next payday; tell the customer first.",
  ],
  R02: ["The receiving account has been closed.", `Do not send again to this account. ${contactCustomer}`],
  R03: [
    "The account number does not match any account at the receiving bank (or not the name given).",
    "Check the account and routing numbers with the customer, correct the counterparty, then send a new transfer.",
  ],
  R04: [
    "The account number is not a valid number for the receiving bank (wrong length or check digit).",
    "Ask the customer for the exact account number, correct the counterparty, then send a new transfer.",
  ],
  R05: [
    "A consumer account was debited with a business (corporate) entry type without the consumer's authorization.",
    "Do not send again as is. Obtain a consumer authorization and resend with a consumer SEC code.",
  ],
  R06: [
    "The sending bank asked for the entry back (for example, it was sent in error).",
    "Check with the originator why it was recalled before sending anything again.",
  ],
  R07: [
    "The customer revoked the authorization they had given for these debits.",
    "Stop further debits on this authorization. Only a new authorization from the customer allows another debit.",
  ],
  R08: ["The customer placed a stop payment on this debit.", "Do not send again until the customer lifts the stop or gives a new authorization."],
  R09: [
    "The account had a balance, but the funds were not yet available (uncollected).",
    "The debit may be sent again (up to two more times within 180 days) once the funds have cleared.",
  ],
  R10: [
    "The account holder says they do not know the originator or never authorized this debit.",
    "Do not send again. Review the authorization on file; this is an unauthorized-return claim and may count toward return-rate limits.",
  ],
  R11: [
    "The customer authorized a debit, but not this one (wrong amount, date or terms).",
    "Correct the entry to match the authorization and send a new transfer, or obtain a new authorization.",
  ],
  R12: [
    "The account was moved to another bank (the branch or account was sold).",
    `Ask the customer for the account's new routing and account numbers. ${contactCustomer}`,
  ],
  R13: ["The routing number is not a valid ACH participant.", "Correct the routing number with the customer, then send a new transfer."],
  R14: [
    "The representative payee has died or can no longer act for the beneficiary.",
    "Stop payments to this payee and contact the beneficiary's representative for new instructions.",
  ],
  R15: ["The beneficiary or account holder has died.", "Stop all entries to this account and follow the estate procedure; do not send again."],
  R16: [
    "The receiving bank froze the account, or returned the entry under an OFAC instruction.",
    "Do not send again. Refer the transfer to compliance.",
  ],
  R17: [
    "The receiving bank could not process the entry's fields (for example, an invalid account number format or a suspicious entry).",
    "Check the entry's details with the customer and send a corrected transfer.",
  ],
  R20: [
    "The account cannot receive ACH entries (for example, a savings account limited in withdrawals).",
    "Ask the customer for a checking account that accepts ACH, correct the counterparty, then send a new transfer.",
  ],
  R23: [
    "The receiver refused the credit (for example, the amount was wrong or they did not expect it).",
    "Contact the customer to confirm the amount and whether they want to receive it before sending again.",
  ],
  R24: [
    "The receiving bank saw this entry as a duplicate of one already received.",
    "Check whether the earlier transfer arrived; send again only if it did not.",
  ],
  R29: [
    "The business account holder says this debit was not authorized.",
    "Do not send again. Obtain the business's authorization (and its ACH debit filter approval) first.",
  ],
});

/** ISO 20022 status reason codes of a rejected instant payment (`external_reject_reason` = `{code, message}`). */
export const fednowRejectWords = reasonWords({
  AC01: ["The receiving bank does not recognise the account number.", "Check the account number with the customer and send a new payment."],
  AC03: [
    "The creditor's account number is not valid at the receiving bank.",
    "Check the creditor's account number with the customer and send a new payment.",
  ],
  AC04: ["The receiving account is closed.", "Do not send again to this account; ask the customer for a new one."],
  AC06: ["The receiving account is blocked.", "Do not send again now; the customer must resolve the block with their bank."],
  AG01: [
    "The receiving bank does not allow this kind of payment on the account.",
    "Use another payment method (ACH or a network transfer) or another account.",
  ],
  AG03: ["The receiving bank does not support this transaction type.", "Use another payment method (ACH or a network transfer)."],
  AM02: ["The amount is above what the receiving bank or the network allows for one payment.", "Split the payment or use a network transfer."],
  AM04: ["The paying account did not have enough money.", "Tell the customer; send again once the account is funded."],
  AM09: ["The amount is not what the receiver expected.", "Confirm the amount with the customer and send a new payment."],
  BE04: ["The creditor's address is missing, which the receiving bank requires.", "Add the creditor's address and send a new payment."],
  DUPL: [
    "The receiving bank saw this as a duplicate of a payment already received.",
    "Check whether the earlier payment arrived; send again only if it did not.",
  ],
  FF02: [
    "The payment message could not be read by the receiving bank (a format error).",
    "Send again; if it is refused again, report it to the bank's support with the payment id.",
  ],
  MS03: [
    "The receiving bank rejected the payment without giving a reason.",
    "Contact the customer; they may ask their bank why, then send again or use another method.",
  ],
  RC01: ["The receiving bank's identifier (routing number) is wrong.", "Correct the routing number with the customer and send a new payment."],
});

/** What a failure with no code means: the bank's words stand, and the next step depends on them. */
const uncoded: ReasonWords = {
  meaning: "The bank gives no network code for this failure; its own words (the title) say what happened.",
  nextStep:
    "Read the bank's words; if the cause is on the customer's side, correct it and send a new one, otherwise contact the bank's support with the id.",
};

/** An instant payment the receiving side did not accept, without a reason code. */
const externalWords = {
  blocked: "Blocked by the receiving side (external status blocked)",
  error: "Failed at the receiving side (external status error)",
} as const;

/** Explains a failure in words (explainFailure's type, for code that loads the word tables when needed). */
export type FailureExplainer = typeof explainFailure;

/**
 * Why a transfer or payment failed, explained, from the object as the bank answers it; null when it did not fail.
 * ACH: returned or in error, by the return code its `error` starts with. Instant payment: its external reject reason
 * (`{code, message}`), else its `error`. Network transfer: its `error` (no network code).
 */
export function explainFailure(kind: string, object: Record<string, unknown>): ExplainedReason | null {
  const error = typeof object.error === "string" && object.error !== "" ? object.error : null;
  if (kind === "fednow") {
    const reject = object.external_reject_reason as { code?: unknown; message?: unknown } | null | undefined;
    if (reject && typeof reject.code === "string") {
      const words = fednowRejectWords[reject.code] ?? uncoded;
      const title = fednowRejectReasons[reject.code] ?? (typeof reject.message === "string" ? reject.message : reject.code);
      return { code: reject.code, title, ...words };
    }
    const external = object.external_status;
    if (!error && (external === "blocked" || external === "error")) return { code: null, title: externalWords[external], ...uncoded };
  }
  if (!error) return null;
  const code = kind === "ach" ? achReturnCodeOf(error) : null;
  if (code) return { code, title: achReturnCodes[code] ?? error.slice(code.length).trim(), ...(achReturnWords[code] ?? uncoded) };
  return { code: null, title: error, ...uncoded };
}
