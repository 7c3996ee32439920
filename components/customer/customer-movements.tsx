"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { DetailExtraProps } from "@/components/bank/detail-extra-props";
import { StatusBadge } from "@/components/bank/status-badge";
import { Amount, Timestamp } from "@/components/bank/value";
import { useConsoleSession } from "@/components/console/providers";
import { fetchConsole } from "@/lib/bank/browser";
import { bankKeys } from "@/lib/bank/query-keys";
import type { CustomerMovement, CustomerTotals } from "@/lib/customer/movements";
import { formatAmount } from "@/lib/format";
import { detailHref, resourceRoutes } from "@/lib/resources/routes";
import { CustomerSection, IndexSource, type IndexAbout } from "./customer-section";

interface CustomerAnswer {
  data: CustomerMovement[];
  page_next?: string;
  totals: CustomerTotals;
  index: IndexAbout;
}

const cents = (value: number) => formatAmount((value / 100).toFixed(2));
const control =
  "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium text-fg hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-40";

/**
 * A counterparty's page, inline: every money movement that names it (from the console's index, newest first, a page
 * of 10), with its totals received and sent over the last 30 days, and how fresh the index is (lib/customer).
 */
export function CustomerMovements({ id }: DetailExtraProps) {
  const { environment } = useConsoleSession();
  // The cursors of the pages walked through, so "Newer" needs no offset.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1) ?? "";
  const query = useQuery({
    queryKey: bankKeys.customerMovements(environment, id, cursor),
    queryFn: ({ signal }) =>
      fetchConsole<CustomerAnswer>(`/api/customer/${encodeURIComponent(id)}${cursor ? `?${new URLSearchParams({ page_cursor: cursor })}` : ""}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const answer = query.data;
  return (
    <CustomerSection title="Money movements" testId="customer-movements">
      {query.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          The movements could not be read: {query.error.message}
        </p>
      ) : !answer ? (
        <p className="text-sm text-muted">Reading the index…</p>
      ) : (
        <>
          <IndexSource index={answer.index} missing="the index has not walked the ACH transfers in full yet: some may be missing" />
          <p data-testid="customer-totals" className="mb-3 text-sm">
            Last 30 days: received <span className="figure font-medium">{cents(answer.totals.inCents)}</span>, sent{" "}
            <span className="figure font-medium">{cents(answer.totals.outCents)}</span> ({answer.totals.count.toLocaleString("en-US")}{" "}
            {answer.totals.count === 1 ? "movement" : "movements"}; canceled, failed and returned ones left out)
          </p>
          {answer.data.length === 0 && cursors.length === 0 ? (
            <p className="text-sm text-muted">No money movement names this counterparty.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <thead className="text-left text-xs text-muted">
                  <tr>
                    <th className="py-1 pr-3 font-medium">Movement</th>
                    <th className="py-1 pr-3 font-medium">Status</th>
                    <th className="py-1 pr-3 text-right font-medium">Amount</th>
                    <th className="hidden py-1 font-medium sm:table-cell">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.data.map((movement) => (
                    <tr key={movement.id} data-testid="customer-movement" data-id={movement.id} className="border-t border-line">
                      <td className="py-1.5 pr-3">
                        <Link href={detailHref(movement.resource, movement.id)} className="font-mono text-xs break-all underline">
                          {movement.id}
                        </Link>
                        <span className="ml-2 hidden text-xs text-muted sm:inline">{resourceRoutes[movement.resource].singular}</span>
                        {/* At a phone's width the date sits under the id, so the amount stays on screen. */}
                        {movement.createdAt ? (
                          <span className="block text-xs sm:hidden">
                            <Timestamp value={movement.createdAt} compact />
                          </span>
                        ) : null}
                      </td>
                      <td className="py-1.5 pr-3">{movement.status ? <StatusBadge status={movement.status} /> : null}</td>
                      <td className="py-1.5 pr-3 text-right">
                        {movement.amount ? (
                          <Amount
                            value={movement.amount}
                            direction={movement.direction === "in" ? "debit" : movement.direction === "out" ? "credit" : undefined}
                          />
                        ) : null}
                      </td>
                      <td className="hidden py-1.5 sm:table-cell">{movement.createdAt ? <Timestamp value={movement.createdAt} compact /> : null}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav aria-label="Movement pages" className="mt-2 flex justify-end gap-2">
            <button type="button" className={control} disabled={cursors.length === 0} onClick={() => setCursors((walked) => walked.slice(0, -1))}>
              ← Newer
            </button>
            <button
              type="button"
              className={control}
              disabled={!answer.page_next}
              onClick={() => answer.page_next && setCursors((walked) => [...walked, answer.page_next!])}
            >
              Older →
            </button>
          </nav>
        </>
      )}
    </CustomerSection>
  );
}
