import { createdAt, id, timestamps, type ResourcePage } from "../types";

export const depositSweeps: ResourcePage = {
  name: "deposit_sweep",
  columns: [
    id(),
    { key: "customer_email", label: "Customer" },
    { key: "network", label: "Network", format: "enum" },
    { key: "opted_in", label: "Opted in", format: "boolean" },
    { key: "sweep_balance", label: "Swept", format: "money" },
    { key: "threshold_balance", label: "Threshold", format: "money" },
    { key: "account_id", label: "Account", format: "mono" },
    createdAt,
  ],
  headline: { key: "sweep_balance", label: "Swept balance", format: "money" },
  sections: [
    {
      title: "Sweep",
      fields: [
        { key: "opted_in", label: "Opted in", format: "boolean" },
        { key: "sweep_balance", label: "Swept balance", format: "money" },
        { key: "threshold_balance", label: "Threshold balance", format: "money" },
        { key: "network", label: "Network", format: "enum" },
        { key: "network_account_id", label: "Network account", format: "mono" },
      ],
    },
    {
      title: "Customer",
      fields: [
        { key: "customer_id", label: "Person", format: "mono", link: { list: "person_application", filter: "person_id" } },
        { key: "customer_email", label: "Email" },
        { key: "customer_identifier", label: "Identifier (masked by the bank)", format: "mono" },
        { key: "account_id", label: "Account", format: "mono" },
        { key: "bank_id", label: "Bank", format: "mono" },
      ],
    },
    timestamps,
  ],
};
