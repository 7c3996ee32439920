import { createdAt, id, status, timestamps, type ResourcePage } from "../types";

export const walletTokens: ResourcePage = {
  name: "digital_wallet_token",
  columns: [
    id(),
    status,
    { key: "fulfillment_status", label: "Fulfillment", format: "status" },
    { key: "token_requestor_name", label: "Wallet", format: "enum" },
    { key: "token_last_four", label: "Token last four", format: "mono" },
    { key: "card_id", label: "Card", format: "id", link: { detail: "card" } },
    createdAt,
  ],
  filters: { card_id: { label: "Card", idPrefix: "card_" } },
  headline: { key: "token_requestor_name", label: "Wallet", format: "enum" },
  sections: [
    {
      title: "Token",
      fields: [
        status,
        { key: "fulfillment_status", label: "Fulfillment decision", format: "status" },
        { key: "message_type", label: "Message type", format: "enum" },
        { key: "token_last_four", label: "Token last four", format: "mono" },
        { key: "card_id", label: "Card", format: "id", link: { detail: "card" } },
      ],
    },
    {
      title: "Requestor",
      fields: [
        { key: "token_requestor_name", label: "Wallet provider", format: "enum" },
        { key: "token_requestor_id", label: "Requestor id", format: "mono" },
      ],
    },
    timestamps,
  ],
};
