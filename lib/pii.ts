/**
 * Masking of bank objects for staff, imported as `@/lib/pii`, its parts in lib/pii/: what each kind shows (allowlists.ts, with the rule for
 * a person's data), how a masked string looks (maskers.ts), who sees what the allowlists mask (grants.ts, the one
 * table the proxy, search and list filters derive from), masking an object (mask.ts) and the review queue's risk
 * summary (risk-summary.ts).
 */
export { allowlists, soleProprietorAllowlist, type ApplicationKind, type MaskedResource } from "./pii/allowlists";
export { maskedValue } from "./pii/maskers";
export { maskForRole, seesAllUnmasked, seesUnmasked, shownInAnswer, unmaskedGrants, type UnmaskedGrant } from "./pii/grants";
export { isMaskedField, maskedFields, maskForViewer } from "./pii/mask";
export { riskSummary, riskSummaryFields } from "./pii/risk-summary";
