/**
 * A failure's network code as the bank's answer carries it, without the word tables of ./reason-codes.ts (which a page
 * loads only when it shows a code's meaning): a list column of codes needs the code alone.
 */

/** The return code an ACH transfer's `error` starts with (`R01 Insufficient Funds` → `R01`), or null. */
export function achReturnCodeOf(error: unknown): string | null {
  const match = typeof error === "string" ? /^(R\d{2})\b/.exec(error.trim()) : null;
  return match ? match[1]! : null;
}

/** The ISO 20022 reject reason code of an instant payment (`external_reject_reason.code`), or null. */
export function rejectCodeOf(object: Record<string, unknown>): string | null {
  const reject = object.external_reject_reason as { code?: unknown } | null | undefined;
  return reject && typeof reject.code === "string" ? reject.code : null;
}
