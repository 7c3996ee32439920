import { createdAt, id, timestamps, type ResourceDefinition } from "../types";

export const counterparties: ResourceDefinition = {
  name: "counterparty",
  title: "Counterparties",
  singular: "Counterparty",
  route: "/counterparties",
  apiPath: "/counterparty",
  idPrefix: "cp_",
  columns: [
    id(),
    { key: "name", label: "Name" },
    { key: "ach.routing_number", label: "ACH routing", format: "mono" },
    { key: "ach.account_number", label: "ACH account", format: "mono" },
    { key: "ach.account_type", label: "Account type" },
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
        { key: "ach.account_type", label: "Account type" },
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
    { title: "Data", fields: [{ key: "userdata", label: "User data", format: "json" }] },
  ],
  relatedLists: [{ label: "ACH transfers with this counterparty", list: "ach", filter: "counterparty_id" }],
};
