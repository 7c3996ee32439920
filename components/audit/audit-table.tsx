import { Table, Td, Th } from "@/components/ui/table";
import type { AuditRecord } from "@/lib/audit/trail";

const outcomeColour = { succeeded: "text-emerald-700 dark:text-emerald-400", failed: "text-red-700 dark:text-red-400", pending: "text-amber-700 dark:text-amber-400" } as const;

function Change({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-muted">none</span>;
  return <pre className="max-w-xs overflow-x-auto whitespace-pre-wrap break-all text-xs">{JSON.stringify(value, null, 1)}</pre>;
}

export function AuditTable({ records }: { records: AuditRecord[] }) {
  return (
    <Table data-testid="audit-table">
      <thead className="bg-surface-2">
        <tr>
          <Th>Time (UTC)</Th>
          <Th>Actor</Th>
          <Th>Environment</Th>
          <Th>Action</Th>
          <Th>Target</Th>
          <Th>Outcome</Th>
          <Th>Before</Th>
          <Th>After</Th>
          <Th>Request</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line">
        {records.length === 0 ? (
          <tr>
            <Td colSpan={9} className="text-muted">
              No audit records match.
            </Td>
          </tr>
        ) : (
          records.map((record) => (
            <tr key={record.id}>
              <Td className="whitespace-nowrap font-mono text-xs">{record.at}</Td>
              <Td>
                {record.actorEmail} <span className="text-muted">({record.role})</span>
              </Td>
              <Td>{record.environment ?? "n/a"}</Td>
              <Td className="font-mono text-xs">{record.action}</Td>
              <Td className="font-mono text-xs">{record.targetId ?? "n/a"}</Td>
              <Td className={outcomeColour[record.outcome]}>
                {record.outcome}
                {record.error ? <span className="block text-xs">{record.error}</span> : null}
              </Td>
              <Td>
                <Change value={record.before} />
              </Td>
              <Td>
                <Change value={record.after} />
              </Td>
              <Td className="font-mono text-xs">{record.requestId}</Td>
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}
