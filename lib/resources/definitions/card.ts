import { createdAt, id, timestamps, type ResourceDefinition } from "../types";

export const cards: ResourceDefinition = {
  name: "card",
  title: "Cards",
  singular: "Card",
  route: "/cards",
  apiPath: "/card",
  idPrefix: "card_",
  columns: [
    id(),
    { key: "status", label: "Status", format: "status" },
    { key: "cardholder_name", label: "Cardholder" },
    { key: "last_four", label: "Last four", format: "mono" },
    { key: "form", label: "Form" },
    { key: "account_id", label: "Account", format: "mono" },
    { key: "expiration_year", label: "Expires", format: "mono", hiddenByDefault: true },
    createdAt,
  ],
  filters: { account_id: { label: "Account", idPrefix: "acct_" } },
  headline: { key: "cardholder_name", label: "Cardholder" },
  sections: [
    {
      title: "Card",
      fields: [
        { key: "status", label: "Status", format: "status" },
        { key: "cardholder_name", label: "Cardholder" },
        { key: "last_four", label: "Last four digits", format: "mono" },
        { key: "form", label: "Form" },
        { key: "expiration_month", label: "Expiration month", format: "mono" },
        { key: "expiration_year", label: "Expiration year", format: "mono" },
      ],
    },
    {
      title: "Owner",
      fields: [
        { key: "account_id", label: "Account", format: "mono", link: { list: "card", filter: "account_id" } },
        { key: "person_id", label: "Person", format: "mono", link: { list: "person_application", filter: "person_id" } },
      ],
    },
    timestamps,
    { title: "Data", fields: [{ key: "userdata", label: "User data", format: "json" }] },
  ],
  relatedLists: [{ label: "Wallet tokens of this card", list: "digital_wallet_token", filter: "card_id" }],
};
