"use client";

import { Timestamp } from "./value";
import type { IndexCopyMark } from "@/lib/bank/index-copy-mark";

/**
 * Shown in place of an error while the bank is not answering and the page shows the console's index copy
 * (docs/bank-outage.md): since when, how old the copy is, and that changes wait. It goes with the next answer the
 * bank gives.
 */
export function BankOutageBanner({ mark, list = false }: { mark: IndexCopyMark; list?: boolean }) {
  return (
    <p
      role="status"
      data-testid="bank-outage-banner"
      className="mb-3 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      The bank is not answering since <Timestamp value={mark.bankSince} compact />. Showing the console&apos;s copy
      {mark.asOf ? (
        <>
          {" "}
          as of <Timestamp value={mark.asOf} />
        </>
      ) : null}
      ; changes are paused.
      {list && !mark.complete ? " The console has not read this whole list yet: objects it has not seen are missing." : null}
    </p>
  );
}
