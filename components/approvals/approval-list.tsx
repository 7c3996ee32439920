import Link from "next/link";
import { StatusBadge } from "@/components/bank/status-badge";
import { Button } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import { actionLabel, approvalStatusLabels, approvalStatuses, approvalStatusTones, approvalUrl, momentText } from "@/lib/approvals/codes";
import type { ChangeRequestFilter, ChangeRequestView } from "@/lib/approvals/store";
import { environments } from "@/lib/credentials/environments";

/** A webhook create has no object id yet: its URL says which it is. */
const urlOf = (payload: unknown) =>
  payload && typeof payload === "object" && typeof (payload as { url?: unknown }).url === "string" ? (payload as { url: string }).url : null;

const selectStyle = "mt-1 block w-full rounded-md border border-line bg-surface px-2 py-1.5 text-sm";

/** The list's filters as a GET form: the URL is the state. */
function ApprovalFilters({ filter }: { filter: ChangeRequestFilter }) {
  return (
    <form
      method="get"
      action="/approvals"
      aria-label="Approval filters"
      className="mb-4 grid gap-3 rounded-md border border-line bg-surface p-4 sm:grid-cols-3 [&>*]:min-w-0"
    >
      <div>
        <label htmlFor="approvals-status" className="block text-sm font-medium text-muted">
          Status
        </label>
        <select id="approvals-status" name="status" defaultValue={filter.status} className={selectStyle}>
          {approvalStatuses.map((status) => (
            <option key={status} value={status}>
              {approvalStatusLabels[status]}
            </option>
          ))}
          <option value="any">Any</option>
        </select>
      </div>
      <div>
        <label htmlFor="approvals-environment" className="block text-sm font-medium text-muted">
          Environment
        </label>
        <select id="approvals-environment" name="environment" defaultValue={filter.environment} className={selectStyle}>
          <option value="any">Both</option>
          {environments.map((environment) => (
            <option key={environment} value={environment}>
              {environment}
            </option>
          ))}
        </select>
      </div>
      <div className="flex items-end">
        <Button type="submit">Filter</Button>
      </div>
    </form>
  );
}

/** Change requests, newest first, with who asked, what, and where each stands. */
export function ApprovalList({
  rows,
  more,
  filter,
  userId,
}: {
  rows: ChangeRequestView[];
  more: boolean;
  filter: ChangeRequestFilter;
  userId: string;
}) {
  const next = new URLSearchParams({ status: filter.status, environment: filter.environment, before: String(rows.at(-1)?.id ?? "") });
  return (
    <>
      <ApprovalFilters filter={filter} />
      {rows.length === 0 ? (
        <p className="rounded-md border border-line bg-surface p-4 text-sm text-muted" data-testid="approvals-empty">
          No change request matches these filters.
        </p>
      ) : (
        <Table data-testid="approvals-list">
          <caption className="sr-only">Change requests, newest first</caption>
          <thead>
            <tr>
              <Th>Request</Th>
              <Th>Status</Th>
              <Th>Change</Th>
              <Th>Environment</Th>
              <Th>Asked by</Th>
              <Th>Asked</Th>
              <Th>Expires / decided</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.id} data-testid="approval-row" data-id={row.id} data-status={row.status}>
                <Td className="tabular-nums">
                  <Link href={approvalUrl(row.id)} className="link font-medium">
                    #{row.id}
                  </Link>
                </Td>
                <Td>
                  <StatusBadge status={approvalStatusLabels[row.status]} tone={approvalStatusTones[row.status]} />
                  {row.outcome === "failed" ? <span className="ml-1 text-xs text-red-700 dark:text-red-300">bank refused</span> : null}
                </Td>
                <Td>
                  {actionLabel(row.action)}
                  {row.targetId || urlOf(row.payload) ? (
                    <span className="block font-mono text-xs break-all text-muted">{row.targetId ?? urlOf(row.payload)}</span>
                  ) : null}
                </Td>
                <Td>{row.environment}</Td>
                <Td>
                  {row.maker.email}
                  {row.maker.id === userId ? <span className="ml-1 text-xs text-muted">(you)</span> : null}
                </Td>
                <Td className="figure">{momentText(row.requestedAt)}</Td>
                <Td className="tabular-nums">
                  <span className="whitespace-nowrap">{momentText(row.decidedAt ?? row.expiresAt)}</span>
                  {row.decidedBy ? (
                    <span className="block text-xs text-muted">
                      {approvalStatusLabels[row.status].toLowerCase()} by {row.decidedBy.email}
                    </span>
                  ) : null}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {more ? (
        <p className="mt-3 text-sm">
          <Link href={`/approvals?${next}`} className="link">
            Older requests →
          </Link>
        </p>
      ) : null}
    </>
  );
}
