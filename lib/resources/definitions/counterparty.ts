import { createdAt, dataSection, id, timestamps, type ResourcePage } from "../types";

export const counterparties: ResourcePage = {
  name: "counterparty",
  columns: [
    id(),
    { key: "name", label: "Name" },
    { key: "ach.routing_number", label: "ACH routing", format: "mono" },
    { key: "ach.account_number", label: "ACH account", format: "mono" },
    { key: "ach.account_type", label: "Account type", format: "enum" },
    { key: "wire.bank_name", label: "Wire bank" },
    createdAt,
  ],
  headline: { key: "name", label: "Name" },
  sections: [
    { title: "Counterparty", fields: [{ key: "name", label: "Name" }] },
    {
      title: "ACH",
      fields: [
        { key: "ach.routing_number", label: "Routing number", format: "mono" },
        { key: "ach.account_number", label: "Account number", format: "mono" },
        { key: "ach.account_type", label: "Account type", format: "enum" },
      ],
    },
    {
      title: "Wire",
      fields: [
        { key: "wire.bank_name", label: "Bank" },
        { key: "wire.routing_number", label: "Routing number", format: "mono" },
        { key: "wire.account_number", label: "Account number", format: "mono" },
      ],
    },
    timestamps,
    dataSection("userdata"),
  ],
  relatedLists: [{ label: "ACH transfers with this counterparty", list: "ach", filter: "counterparty_id" }],
};
