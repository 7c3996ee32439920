/**
 * The mark on a bank read the console answered from its index because the bank was not answering
 * (lib/api/index-fallback.ts, docs/bank-outage.md): a field at the top of the answer, the page or the object, added
 * after masking. Apart from the server module so that the browser's banner can read it.
 */
export const indexCopyField = "console_index_copy";

export interface IndexCopyMark {
  source: "index";
  /** When the bank stopped answering: the first failure of the current run (lib/bank/circuit.ts), ISO 8601. */
  bankSince: string;
  /** The newest time the index recorded a change of what is shown (null for an empty page). */
  asOf: string | null;
  /** False while the index has not walked this list in full: objects it has not seen yet are missing. */
  complete: boolean;
}

/** An answer without its mark, and the mark (undefined for the bank's own answer). */
export function splitIndexCopy<T extends Record<string, unknown>>(answer: T): { answer: T; mark: IndexCopyMark | undefined } {
  if (!(indexCopyField in answer)) return { answer, mark: undefined };
  const { [indexCopyField]: mark, ...rest } = answer;
  return { answer: rest as T, mark: mark as IndexCopyMark };
}
