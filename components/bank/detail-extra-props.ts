/** What the server page tells a resource's actions (components/bank/detail-context.ts); never credentials. */
export type DetailContext = Record<string, string>;

/** What every detail page extra (registered in components/bank/detail-extras.tsx) is given. */
export interface DetailExtraProps {
  id: string;
  /** The object as the page shows it (masked). */
  object: Record<string, unknown>;
  context: DetailContext;
  /**
   * An action tells the page what its user just wrote (the bank's answer to their change, unmasked to its caller), so
   * the Details card shows it in place of the mask until the object changes again (its `updated_at` moves).
   */
  onWritten?(fields: Record<string, unknown>, updatedAt: string): void;
}
