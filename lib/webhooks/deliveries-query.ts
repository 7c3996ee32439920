/** Delivery attempts per page of a webhook's delivery table. */
export const deliveriesPageSize = 25;

/** Which attempts the table shows: all of them, or the failed ones only (`succeeded=false`). */
export type DeliveryOutcome = "all" | "failed";

/**
 * The bank query of one page of a webhook's delivery attempts, newest first. Its first page (all, no cursor) is read
 * with the webhook's page on the server (components/bank/resource-pages.tsx) under the same query, so the table is in
 * the first HTML.
 */
export function deliveriesQuery(outcome: DeliveryOutcome, cursor?: string): Record<string, string> {
  return {
    page_size: String(deliveriesPageSize),
    ...(outcome === "failed" ? { succeeded: "false" } : {}),
    ...(cursor ? { page_cursor: cursor } : {}),
  };
}
