import Link from "next/link";
import { StatusBadge } from "@/components/bank/status-badge";
import { Button } from "@/components/ui/button";
import { ServerWhen } from "@/components/format/when";
import { RenderedTable, type RenderedColumn, type RenderedRow } from "@/components/tables/rendered-table";
import { actionLabel, approvalStatusLabels, approvalStatuses, approvalStatusTones, approvalUrl } from "@/lib/approvals/codes";
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

const columns: RenderedColumn[] = [
  { id: "request", header: "Request" },
  { id: "status", header: "Status" },
  { id: "change", header: "Change" },
  { id: "environment", header: "Environment" },
  { id: "maker", header: "Asked by" },
  { id: "requested", header: "Asked" },
  { id: "ends", header: "Expires / decided" },
];

/** One change request's cells: who asked, what, and where it stands (times in the one date style and the staff member's zone). */
function requestRow(row: ChangeRequestView, userId: string): RenderedRow {
  const target = row.targetId ?? urlOf(row.payload);
  return {
    id: String(row.id),
    href: approvalUrl(row.id),
    data: { "data-testid": "approval-row", "data-status": row.status },
    cells: {
      request: (
        <Link href={approvalUrl(row.id)} className="link font-medium tabular-nums">
          #{row.id}
        </Link>
      ),
      status: (
        <>
          <StatusBadge status={approvalStatusLabels[row.status]} tone={approvalStatusTones[row.status]} />
          {row.outcome === "failed" ? <span className="ml-1 text-xs text-red-700 dark:text-red-300">bank refused</span> : null}
        </>
      ),
      change: (
        <>
          {actionLabel(row.action)}
          {target ? <span className="block max-w-xs font-mono text-xs break-all whitespace-normal text-muted">{target}</span> : null}
        </>
      ),
      environment: row.environment,
      maker: (
        <>
          {row.maker.email}
          {row.maker.id === userId ? <span className="ml-1 text-xs text-muted">(you)</span> : null}
        </>
      ),
      requested: <ServerWhen at={row.requestedAt} className="tabular-nums" />,
      ends: (
        <>
          <ServerWhen at={row.decidedAt ?? row.expiresAt} className="tabular-nums" />
          {row.decidedBy ? (
            <span className="block text-xs text-muted">
              {approvalStatusLabels[row.status].toLowerCase()} by {row.decidedBy.email}
            </span>
          ) : null}
        </>
      ),
    },
  };
}

/** Change requests, newest first, with who asked, what, and where each stands; a row opens its request. */
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
      <RenderedTable
        list="approvals"
        caption="Change requests, newest first"
        columns={columns}
        rows={rows.map((row) => requestRow(row, userId))}
        testId="approvals-list"
        empty={<span data-testid="approvals-empty">No change request matches these filters.</span>}
      />
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
