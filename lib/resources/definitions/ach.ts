import { amount, createdAt, dataSection, id, orgFilter, status, timestamps, type Field, type ResourcePage } from "../types";

/** Credit or debit beside the amount: which way the money moves. */
const directedAmount: Field = { ...amount, direction: "direction" };

export const achTransfers: ResourcePage = {
  name: "ach",
  columns: [
    id(),
    status,
    directedAmount,
    // The amount shows the direction (CR/DR): the column is there for those who want it spelt out.
    { key: "direction", label: "Direction", format: "enum", hiddenByDefault: true },
    { key: "service", label: "Service", format: "enum" },
    // Filtered by under "More filters" and shown on the transfer's page; off by default: with it, the default columns
    // are ~100 px wider than the list at 1440 px, even with the return code alone in its column.
    { key: "account_id", label: "Account", format: "id", hiddenByDefault: true },
    { key: "counterparty_id", label: "Counterparty", format: "id", link: { detail: "counterparty" } },
    { key: "effective_date", label: "Effective", format: "date" },
    { key: "trace_number", label: "Trace number", format: "mono", hiddenByDefault: true },
    // Computed from the bank's `error` ("R01 Insufficient Funds" → R01, docs/return-codes.md); a click lists every
    // transfer returned with it (the index's `return_code` filter). Both are columns of the export too.
    { key: "return_code", label: "Return code", format: "code", derived: "ach_return_code", link: { list: "ach", filter: "return_code" } },
    { key: "return_reason", label: "Return reason", format: "reason", derived: "ach_return_reason", hiddenByDefault: true },
    createdAt,
  ],
  filters: {
    account_id: { label: "Account", idPrefix: "acct_" },
    counterparty_id: { label: "Counterparty", idPrefix: "cp_" },
    effective_date: { label: "Effective date" },
    org_id: orgFilter,
    trace_suffix: { label: "Trace number", hint: "the 15-digit trace number" },
  },
  headline: directedAmount,
  sections: [
    {
      title: "Transfer",
      fields: [
        status,
        directedAmount,
        { key: "direction", label: "Direction", format: "enum" },
        { key: "service", label: "Service", format: "enum" },
        { key: "sec_code", label: "SEC code", format: "enum" },
        { key: "effective_date", label: "Effective date", format: "date" },
        { key: "scheduled_settlement", label: "Scheduled settlement", format: "timestamp" },
        { key: "trace_number", label: "Trace number", format: "mono" },
        { key: "description", label: "Description" },
        { key: "originator_name", label: "Originator" },
        { key: "error", label: "Return code and reason" },
      ],
    },
    {
      title: "Parties",
      fields: [
        { key: "account_id", label: "Account", format: "mono", link: { list: "ach", filter: "account_id" } },
        { key: "counterparty_id", label: "Counterparty", format: "id", link: { detail: "counterparty" } },
        { key: "org_id", label: "Organization", format: "mono", link: { list: "ach", filter: "org_id" } },
      ],
    },
    timestamps,
    dataSection("userdata"),
  ],
};
