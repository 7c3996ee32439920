import { amount, createdAt, dataSection, id, orgFilter, status, timestamps, type ResourcePage } from "../types";

export const networkTransfers: ResourcePage = {
  name: "network_transfer",
  columns: [
    id(),
    status,
    amount,
    { key: "from_account_id", label: "From account", format: "mono" },
    { key: "to_account_id", label: "To account", format: "mono" },
    { key: "description", label: "Description" },
    // A network transfer's failure carries no network code: the bank's own words (docs/return-codes.md).
    { key: "error", label: "Failure", format: "reason" },
    { key: "cross_bank", label: "Cross-bank", format: "boolean", hiddenByDefault: true },
    { key: "estimated_settlement_at", label: "Est. settlement", format: "timestamp", hiddenByDefault: true },
    createdAt,
  ],
  filters: {
    from_account_id: { label: "From account", idPrefix: "acct_" },
    to_account_id: { label: "To account", idPrefix: "acct_" },
    cross_bank: { label: "Cross-bank" },
    org_id: orgFilter,
  },
  headline: amount,
  sections: [
    {
      title: "Transfer",
      fields: [
        status,
        amount,
        { key: "description", label: "Description" },
        { key: "error", label: "Failure message" },
        { key: "cross_bank", label: "Between different banks", format: "boolean" },
        { key: "estimated_settlement_at", label: "Estimated settlement", format: "timestamp" },
        { key: "balanced_at", label: "Balancing wire sent", format: "timestamp" },
        { key: "version", label: "API version", format: "mono" },
      ],
    },
    {
      title: "Accounts",
      fields: [
        { key: "from_account_id", label: "From account", format: "mono", link: { list: "network_transfer", filter: "from_account_id" } },
        { key: "to_account_id", label: "To account", format: "mono", link: { list: "network_transfer", filter: "to_account_id" } },
        { key: "org_id", label: "Organization", format: "mono", link: { list: "network_transfer", filter: "org_id" } },
      ],
    },
    timestamps,
    dataSection("userdata", "bankdata"),
  ],
};
