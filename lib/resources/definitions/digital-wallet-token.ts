import { createdAt, id, timestamps, type ResourceDefinition } from "../types";

export const walletTokens: ResourceDefinition = {
  name: "digital_wallet_token",
  title: "Wallet tokens",
  singular: "Wallet token",
  route: "/wallet-tokens",
  apiPath: "/digital_wallet_token",
  idPrefix: "dwt_",
  columns: [
    id(),
    { key: "status", label: "Status", format: "status" },
    { key: "fulfillment_status", label: "Fulfillment", format: "status" },
    { key: "token_requestor_name", label: "Wallet" },
    { key: "token_last_four", label: "Token last four", format: "mono" },
    { key: "card_id", label: "Card", format: "id", link: { detail: "card" } },
    createdAt,
  ],
  filters: { card_id: { label: "Card", idPrefix: "card_" } },
  headline: { key: "token_requestor_name", label: "Wallet" },
  sections: [
    {
      title: "Token",
      fields: [
        { key: "status", label: "Status", format: "status" },
        { key: "fulfillment_status", label: "Fulfillment decision", format: "status" },
        { key: "message_type", label: "Message type", format: "mono" },
        { key: "token_last_four", label: "Token last four", format: "mono" },
        { key: "card_id", label: "Card", format: "id", link: { detail: "card" } },
      ],
    },
    {
      title: "Requestor",
      fields: [
        { key: "token_requestor_name", label: "Wallet provider" },
        { key: "token_requestor_id", label: "Requestor id", format: "mono" },
      ],
    },
    timestamps,
  ],
};
