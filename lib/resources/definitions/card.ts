import { createdAt, dataSection, id, status, timestamps, type ResourcePage } from "../types";

export const cards: ResourcePage = {
  name: "card",
  columns: [
    id(),
    status,
    { key: "cardholder_name", label: "Cardholder" },
    { key: "last_four", label: "Last four", format: "mono" },
    { key: "form", label: "Form", format: "enum" },
    { key: "account_id", label: "Account", format: "mono" },
    { key: "expiration_month", label: "Expires", format: "expiry", hiddenByDefault: true },
    createdAt,
  ],
  filters: { account_id: { label: "Account", idPrefix: "acct_" } },
  headline: { key: "cardholder_name", label: "Cardholder" },
  sections: [
    {
      title: "Card",
      fields: [
        status,
        { key: "cardholder_name", label: "Cardholder" },
        { key: "last_four", label: "Last four digits", format: "mono" },
        { key: "form", label: "Form", format: "enum" },
        { key: "expiration_month", label: "Expires", format: "expiry" },
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
    dataSection("userdata"),
  ],
  relatedLists: [{ label: "Wallet tokens of this card", list: "digital_wallet_token", filter: "card_id" }],
};
