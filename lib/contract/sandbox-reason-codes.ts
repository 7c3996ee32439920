/**
 * The codes a test may ask a transition for: why an ACH transfer was returned (NACHA return codes, stored in `error`
 * as "<code> <title>", the form the lifecycle's magic amounts use) and why the receiving side rejected an outgoing
 * instant payment (ISO 20022 status reason codes, stored in `external_reject_reason` as `{code, message}`).
 * Plain data, shared by the sandbox (what a transition accepts) and the console's Simulate menu (what it offers).
 */

/** NACHA return codes and their titles. */
export const achReturnCodes: Readonly<Record<string, string>> = {
  R01: "Insufficient Funds",
  R02: "Account Closed",
  R03: "No Account/Unable to Locate Account",
  R04: "Invalid Account Number Structure",
  R05: "Unauthorized Debit to Consumer Account Using Corporate SEC Code",
  R06: "Returned per ODFI's Request",
  R07: "Authorization Revoked by Customer",
  R08: "Payment Stopped",
  R09: "Uncollected Funds",
  R10: "Customer Advises Originator is Not Known and/or Not Authorized",
  R11: "Customer Advises Entry Not in Accordance with the Terms of the Authorization",
  R12: "Account Sold to Another DFI",
  R13: "Invalid ACH Routing Number",
  R14: "Representative Payee Deceased or Unable to Continue in That Capacity",
  R15: "Beneficiary or Account Holder (Other Than a Representative Payee) Deceased",
  R16: "Account Frozen/Entry Returned per OFAC Instruction",
  R17: "File Record Edit Criteria",
  R20: "Non-Transaction Account",
  R23: "Credit Entry Refused by Receiver",
  R24: "Duplicate Entry",
  R29: "Corporate Customer Advises Not Authorized",
};

/** ISO 20022 status reason codes a FedNow participant answers a rejected payment with, and their names. */
export const fednowRejectReasons: Readonly<Record<string, string>> = {
  AC01: "Incorrect account number",
  AC03: "Invalid creditor account number",
  AC04: "Closed account number",
  AC06: "Blocked account",
  AG01: "Transaction forbidden",
  AG03: "Transaction type not supported",
  AM02: "Not allowed amount",
  AM04: "Insufficient funds",
  AM09: "Wrong amount",
  BE04: "Missing creditor address",
  DUPL: "Duplicate payment",
  FF02: "Syntax error",
  MS03: "Reason not specified",
  RC01: "Bank identifier incorrect",
};

/** What a transition to returned, or to an external status rejected, takes when the request names no code. */
export const defaultReturnCode = "R01";
export const defaultRejectReason = "AC04";

/** The `error` of an ACH transfer returned with `code`. */
export const achReturnError = (code: string) => `${code} ${achReturnCodes[code]}`;
