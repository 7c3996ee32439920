import { simulatedProviders, walletProviders } from "@/lib/simulations/wallet-providers";

// The sandbox's documented values (docs/sandbox-data.md); kept here because these forms are the sandbox's own tools.
export const fulfillments = ["decision_green", "decision_yellow", "decision_red", "rejected", "provisioned"] as const;
export const fulfillmentOptions = [
  { value: "", label: "Decided by the card id (magic suffix, else provisioned)" },
  ...fulfillments.map((status) => ({ value: status, label: status })),
];
export const providerOptions = simulatedProviders.map((name) => ({
  value: name,
  label: `${walletProviders[name].label} (requestor id ${walletProviders[name].requestorId})`,
}));
