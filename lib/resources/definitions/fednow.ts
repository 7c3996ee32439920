import { amount, createdAt, id, orgFilter, status, timestamps, type Field, type ResourcePage } from "../types";

/** In the payment's own currency, with credit or debit beside it. */
const paymentAmount: Field = { ...amount, direction: "payment_type", currency: "currency" };

export const instantPayments: ResourcePage = {
  name: "fednow",
  columns: [
    id(),
    status,
    { key: "external_status", label: "External status", format: "status" },
    // Why the receiving side rejected it (ISO 20022, docs/return-codes.md): the code, its meaning on hover, a click
    // lists every payment rejected with it (the index's `return_code` filter); both are columns of the export too.
    { key: "reject_code", label: "Reject code", format: "code", derived: "fednow_reject_code", link: { list: "fednow", filter: "return_code" } },
    { key: "reject_reason", label: "Reject reason", format: "reason", derived: "fednow_reject_reason", hiddenByDefault: true },
    paymentAmount,
    { key: "payment_type", label: "Type", format: "enum" },
    { key: "external_name", label: "External party" },
    { key: "account_id", label: "Account", format: "mono" },
    { key: "payment_id", label: "Network payment id", format: "mono", hiddenByDefault: true },
    { key: "fed_settlement_date", label: "Settlement date", format: "date", hiddenByDefault: true },
    createdAt,
  ],
  filters: {
    account_id: { label: "Account", idPrefix: "acct_" },
    bank_id: { label: "Bank", idPrefix: "bank_" },
    org_id: orgFilter,
    external_account_number: { label: "External account number" },
    external_status: { label: "External status" },
    payment_id: { label: "Network payment id" },
  },
  headline: paymentAmount,
  sections: [
    {
      title: "Payment",
      fields: [
        status,
        paymentAmount,
        { key: "currency", label: "Currency" },
        { key: "payment_type", label: "Type", format: "enum" },
        { key: "payment_id", label: "Network payment id", format: "mono" },
        { key: "fed_settlement_date", label: "Settlement date", format: "date" },
        { key: "description", label: "Description" },
        { key: "memo", label: "Memo" },
        { key: "originator_name", label: "Sender name" },
        { key: "error", label: "Failure reason" },
      ],
    },
    {
      title: "External account",
      fields: [
        { key: "external_status", label: "External status", format: "status" },
        { key: "external_name", label: "Name" },
        { key: "external_account_number", label: "Account number", format: "mono", link: { list: "fednow", filter: "external_account_number" } },
        { key: "external_routing_number", label: "Routing number", format: "mono" },
        { key: "external_reject_reason.code", label: "Reject code", format: "mono" },
        { key: "external_reject_reason.message", label: "Reject reason" },
      ],
    },
    {
      title: "Parties",
      fields: [
        { key: "account_id", label: "Account", format: "mono", link: { list: "fednow", filter: "account_id" } },
        { key: "bank_id", label: "Bank", format: "mono", link: { list: "fednow", filter: "bank_id" } },
        { key: "org_id", label: "Organization", format: "mono", link: { list: "fednow", filter: "org_id" } },
        { key: "related_fednow_ids", label: "Related payments", format: "list", link: { detail: "fednow" } },
      ],
    },
    {
      title: "Submission context",
      fields: [
        { key: "security_context.device_id", label: "Device", format: "mono" },
        { key: "security_context.ip_address", label: "IP address", format: "mono" },
        { key: "security_context.user_agent", label: "User agent" },
      ],
    },
    timestamps,
  ],
};
