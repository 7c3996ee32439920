import Link from "next/link";
import type { ReactNode } from "react";
import { StatusBadge } from "@/components/bank/status-badge";
import { Timestamp } from "@/components/bank/value";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { UserdataChanges } from "@/components/userdata/userdata-changes";
import { BulkRequest } from "@/components/bulk/bulk-request";
import { actionLabel, approvalStatusLabels, approvalStatusTones, resourceOfAction } from "@/lib/approvals/codes";
import type { ChangeRequestView } from "@/lib/approvals/store";
import { jsonDiff } from "@/lib/json-diff";
import { resourceRoutes } from "@/lib/resources/routes";
import { ApprovalDecision } from "./approval-decision";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const shown = (value: unknown) => (value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

/** The userdata diff, as the editor showed it to the maker: what the bank holds → what will be sent. */
function UserdataDiff({ before, after }: { before: unknown; after: unknown }) {
  const changes = jsonDiff(before ?? {}, after ?? {});
  if (changes.length === 0) return <p className="text-sm text-muted">No difference from the bank&apos;s value at the time of the request.</p>;
  return <UserdataChanges changes={changes} testId="approval-userdata-diff" />;
}

/** Each field the change sends beside its value now (at the bank, or the connection in use); userdata as a diff. */
function WhatIsSent({ request }: { request: ChangeRequestView }) {
  const payload = isObject(request.payload) ? request.payload : {};
  const before = isObject(request.before) ? request.before : {};
  if (request.method === "DELETE")
    return (
      <>
        <p className="mb-2 text-sm">Deletes this object at the bank (its pending deliveries and their history go with it):</p>
        <FieldTable rows={Object.keys(before).map((field) => ({ field, now: before[field], sent: undefined }))} />
      </>
    );
  if (request.kind === "bulk") return <BulkRequest payload={request.payload} before={request.before} />;
  if (request.kind === "setting")
    return <p className="text-sm">Turns four-eyes off in {request.environment}: changes there are then sent at once, without a second person.</p>;
  if (request.action === "credentials.clear")
    return <p className="text-sm">Removes the saved {request.environment} credentials; the environment variables apply again.</p>;
  const fields = Object.keys(payload).filter((field) => field !== "userdata");
  return (
    <div className="space-y-3">
      {"userdata" in payload ? (
        <div>
          <h3 className="mb-1 text-xs font-semibold text-muted">userdata: changes against the bank&apos;s value</h3>
          <UserdataDiff before={before.userdata} after={payload.userdata} />
        </div>
      ) : null}
      {fields.length ? (
        <FieldTable
          rows={fields.map((field) => ({ field, now: request.kind === "bank" && !request.before ? undefined : before[field], sent: payload[field] }))}
        />
      ) : null}
    </div>
  );
}

function FieldTable({ rows }: { rows: Array<{ field: string; now: unknown; sent: unknown }> }) {
  return (
    <Table data-testid="approval-fields">
      <thead>
        <tr>
          <Th>Field</Th>
          <Th>Now</Th>
          <Th>Will be sent</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {rows.map((row) => (
          <tr key={row.field}>
            <Td className="font-mono text-xs">{row.field}</Td>
            <Td className="font-mono text-xs break-all">{shown(row.now)}</Td>
            <Td className="font-mono text-xs break-all">{shown(row.sent)}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/** One change request: what will be sent, who asked, where it stands, and the decision the viewer may take. */
export function ApprovalDetail({ request, viewer }: { request: ChangeRequestView; viewer: { id: string; mayDecide: boolean; isMaker: boolean } }) {
  const resource = resourceOfAction(request.action);
  const target = request.targetId && resource ? `${resourceRoutes[resource].route}/${encodeURIComponent(request.targetId)}` : null;
  return (
    <>
      <PageHeader
        title={`Change request #${request.id}`}
        description={`${actionLabel(request.action)} in the ${request.environment} environment, asked by ${request.maker.email}.`}
        actions={<StatusBadge status={approvalStatusLabels[request.status]} tone={approvalStatusTones[request.status]} />}
      />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="space-y-4">
          <section aria-labelledby="approval-sent" className="rounded-md border border-line bg-surface p-4">
            <h2 id="approval-sent" className="mb-2 text-sm font-semibold">
              What will be sent
            </h2>
            {request.method && request.path ? (
              <p className="mb-2 font-mono text-xs" data-testid="approval-request-line">
                {request.method} {request.path}
              </p>
            ) : null}
            <WhatIsSent request={request} />
            <p className="mt-2 text-xs text-muted">
              &quot;Now&quot; is the value when the request was made (<Timestamp value={request.requestedAt} compact />
              ). Secrets are never shown.
            </p>
          </section>
          {request.outcome ? (
            <section
              aria-labelledby="approval-answer"
              className="rounded-md border border-line bg-surface p-4"
              data-testid="approval-outcome"
              data-outcome={request.outcome}
            >
              <h2 id="approval-answer" className="mb-2 text-sm font-semibold">
                {request.outcome === "succeeded" ? "The bank's answer" : "Sending failed"}
              </h2>
              {request.error ? <p className="text-sm text-red-700 dark:text-red-300">{request.error}</p> : null}
              {request.result ? <pre className="overflow-x-auto font-mono text-xs">{JSON.stringify(request.result, null, 2)}</pre> : null}
            </section>
          ) : null}
        </div>
        <aside className="space-y-4">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-md border border-line bg-surface p-4 text-sm">
            <Item term="Status">
              <span data-testid="approval-status">{approvalStatusLabels[request.status]}</span>
            </Item>
            <Item term="Environment">{request.environment}</Item>
            {request.targetId ? (
              <Item term="Object">
                {target ? (
                  <Link href={target} className="link font-mono text-xs">
                    {request.targetId}
                  </Link>
                ) : (
                  <span className="font-mono text-xs">{request.targetId}</span>
                )}
              </Item>
            ) : null}
            <Item term="Asked by">
              {request.maker.email} ({request.maker.role}){viewer.isMaker ? " — you" : ""}
            </Item>
            <Item term="Asked">
              <Timestamp value={request.requestedAt} compact />
            </Item>
            <Item term={request.status === "expired" ? "Expired" : "Expires"}>
              <Timestamp value={request.expiresAt} compact />
            </Item>
            {request.decidedBy ? (
              <>
                <Item term={request.status === "withdrawn" ? "Withdrawn by" : request.status === "rejected" ? "Rejected by" : "Approved by"}>
                  <span data-testid="approval-decided-by">{request.decidedBy.email}</span> ({request.decidedBy.role})
                </Item>
                <Item term="Decided">
                  <Timestamp value={request.decidedAt!} compact />
                </Item>
                {request.decisionNote ? <Item term="Note">{request.decisionNote}</Item> : null}
              </>
            ) : null}
            {request.sentAt ? (
              <Item term="Sent">
                <Timestamp value={request.sentAt} compact />
              </Item>
            ) : null}
            <Item term="Needs">{request.permission}</Item>
          </dl>
          {request.status === "pending" ? (
            <ApprovalDecision id={request.id} mayDecide={viewer.mayDecide} isMaker={viewer.isMaker} permission={request.permission} />
          ) : null}
        </aside>
      </div>
    </>
  );
}
