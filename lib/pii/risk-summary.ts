import { isPlainObject } from "./mask";

/**
 * The bank-attached (`bankdata`) fields of an application that are a risk assessment rather than personal data, shown
 * in the review queue as fields (docs/reviews.md): the KYC vendor, its result and score. Anything else in `bankdata`
 * stays masked; only strings, numbers and booleans are shown.
 */
export const riskSummaryFields = ["kyc_vendor", "kyc_result", "kyc_status", "risk_score", "risk_level"] as const;

/** The risk summary of an application's unmasked state (call before masking it): allowlisted bankdata fields only. */
export function riskSummary(state: Record<string, unknown> | null): Array<{ field: string; value: string | number | boolean }> {
  const bankdata = state?.bankdata;
  if (!isPlainObject(bankdata)) return [];
  return riskSummaryFields.flatMap((field) => {
    const value = Object.hasOwn(bankdata, field) ? bankdata[field] : undefined;
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? [{ field, value }] : [];
  });
}
