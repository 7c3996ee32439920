/**
 * The wallet providers (token requestors) the simulation knows, by the name the bank uses, with the name people use
 * and the requestor id (lib/contract/resources.ts `tokenRequestors`, `thirdTokenRequestor`; repeated here because this
 * module is loaded in the browser, where the contract's zod is not). `runs.test.ts` checks they agree.
 */
export const walletProviders = {
  APPLE_PAY: { label: "Apple Pay", requestorId: "40010030273" },
  GOOGLE_PAY: { label: "Google Pay", requestorId: "40010075001" },
  SAMSUNG_PAY: { label: "Samsung Pay", requestorId: "40010043095" },
} as const;
export type WalletProvider = keyof typeof walletProviders;

/** The two a simulation may name (the third id exists, but the simulation's requestor names are these two). */
export const simulatedProviders = ["APPLE_PAY", "GOOGLE_PAY"] as const satisfies readonly WalletProvider[];

/** "Google Pay" for GOOGLE_PAY; an unknown value as the bank sent it. */
export function walletProviderName(value: unknown): string {
  if (typeof value !== "string") return "";
  return value in walletProviders ? walletProviders[value as WalletProvider].label : value;
}
