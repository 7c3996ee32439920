/**
 * The codes the Simulate menu offers: why an ACH transfer is returned (NACHA return codes) and why the receiving
 * side rejects an outgoing instant payment (ISO 20022 status reason codes). The sandbox keeps the same lists
 * (sandbox/control/reason-codes.ts), which the console may not import (it talks to the bank over HTTP only);
 * reason-codes.test.ts holds the two equal.
 */

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
