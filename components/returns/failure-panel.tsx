"use client";

import Link from "next/link";
import { Timestamp } from "@/components/bank/value";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { explainFailure } from "@/lib/contract/reason-codes";
import { listHref } from "@/lib/resources/routes";
import { kindsWithReturnCode } from "@/lib/search/index-filters";

/**
 * "Why it failed" on the page of an ACH transfer, instant payment or network transfer that was returned, rejected or
 * ended in error: the code, its title, what it means, what to do next (lib/contract/reason-codes.ts,
 * docs/return-codes.md) and when, from the bank's `updated_at` (the change that moved it there; a failed transfer
 * changes no more), not from when the console first saw it. Nothing for one that did not fail.
 */
export function FailurePanel({ object, kind }: DetailExtraProps & { kind: "ach" | "fednow" | "network_transfer" }) {
  const reason = explainFailure(kind, object);
  if (!reason) return null;
  const returned = kind === "ach" && object.status === "returned";
  return (
    <section
      aria-labelledby="failure-title"
      data-testid="failure-panel"
      className="mt-4 rounded-md border border-red-300 bg-surface p-3 dark:border-red-800"
    >
      <h2 id="failure-title" className="mb-2 text-xs font-semibold tracking-wide text-muted uppercase">
        {returned ? "Why it was returned" : "Why it failed"}
      </h2>
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-muted">{kind === "fednow" ? "Reject reason" : "Return code"}</dt>
        <dd data-testid="failure-code">
          {reason.code ? <span className="mr-2 font-mono font-semibold">{reason.code}</span> : null}
          {reason.title}
        </dd>
        <dt className="text-muted">What it means</dt>
        <dd data-testid="failure-meaning">{reason.meaning}</dd>
        <dt className="text-muted">What to do next</dt>
        <dd data-testid="failure-next-step">{reason.nextStep}</dd>
        <dt className="text-muted">{returned ? "Returned" : "Failed"}</dt>
        <dd data-testid="failure-at">{typeof object.updated_at === "string" ? <Timestamp value={object.updated_at} /> : "not known"}</dd>
      </dl>
      <p className="mt-2 text-xs text-muted">
        {reason.code && kindsWithReturnCode.includes(kind) ? (
          <>
            <Link href={listHref(kind, { return_code: reason.code })} className="link underline" data-testid="failure-same-code">
              Every {kind === "ach" ? "ACH transfer" : "instant payment"} with {reason.code}
            </Link>{" "}
            ·{" "}
          </>
        ) : null}
        Every code and its meaning: <span className="font-mono">docs/return-codes.md</span>.
      </p>
    </section>
  );
}
