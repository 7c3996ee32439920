import { createdAt, id, timestamps, type ResourceDefinition } from "../types";

export const achTransfers: ResourceDefinition = {
  name: "ach",
  title: "ACH transfers",
  singular: "ACH transfer",
  route: "/ach",
  apiPath: "/ach",
  idPrefix: "ach_",
  columns: [
    id(),
    { key: "status", label: "Status", format: "status" },
    { key: "amount", label: "Amount", format: "money" },
    { key: "direction", label: "Direction" },
    { key: "service", label: "Service" },
    { key: "account_id", label: "Account", format: "mono" },
    { key: "counterparty_id", label: "Counterparty", format: "id", link: { detail: "counterparty" } },
    { key: "effective_date", label: "Effective", format: "date" },
    { key: "trace_number", label: "Trace number", format: "mono", hiddenByDefault: true },
    { key: "error", label: "Error", hiddenByDefault: true },
    createdAt,
  ],
  filters: {
    account_id: { label: "Account", idPrefix: "acct_" },
    counterparty_id: { label: "Counterparty", idPrefix: "cp_" },
    effective_date: { label: "Effective date" },
    org_id: { label: "Organization", idPrefix: "org_" },
    trace_suffix: { label: "Trace number", hint: "the 15-digit trace number" },
  },
  headline: { key: "amount", label: "Amount", format: "money" },
  sections: [
    {
      title: "Transfer",
      fields: [
        { key: "status", label: "Status", format: "status" },
        { key: "amount", label: "Amount", format: "money" },
        { key: "direction", label: "Direction" },
        { key: "service", label: "Service" },
        { key: "sec_code", label: "SEC code", format: "mono" },
        { key: "effective_date", label: "Effective date", format: "date" },
        { key: "scheduled_settlement", label: "Scheduled settlement", format: "timestamp" },
        { key: "trace_number", label: "Trace number", format: "mono" },
        { key: "description", label: "Description" },
        { key: "originator_name", label: "Originator" },
        { key: "error", label: "Error" },
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
    { title: "Data", fields: [{ key: "userdata", label: "User data", format: "json" }] },
  ],
};
