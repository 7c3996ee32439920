import type { ReactNode } from "react";
import { relativeTime } from "@/lib/format";

/** What the customer views say of the index they read (lib/customer/movements.ts, `indexFreshness`). */
export interface IndexAbout {
  asOf: string;
  lastChange: string | null;
  complete: boolean;
}

/** One panel of a customer view (a counterparty's movements, what the index links to a person or a business). */
export function CustomerSection({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const heading = `${testId}-title`;
  return (
    <section aria-labelledby={heading} data-testid={testId} className="mt-4 rounded-md border border-line bg-surface p-3">
      <h2 id={heading} className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Where a customer view's figures come from and how fresh they are, with what the index may be missing. */
export function IndexSource({ index, missing }: { index: IndexAbout; missing?: string }) {
  return (
    <p data-testid="customer-source" className="mb-2 text-xs text-muted">
      From the console&apos;s index, updated {index.lastChange ? relativeTime(index.lastChange, Date.parse(index.asOf)) : "never"}
      {index.complete || !missing ? "" : ` (${missing})`}.
    </p>
  );
}
