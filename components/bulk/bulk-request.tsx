import { Table, Td, Th } from "@/components/ui/table";
import { bulkActions, isBulkAction } from "@/lib/bulk/codes";

const shown = (value: unknown) => (value === undefined ? "—" : JSON.stringify(value));

/**
 * A bulk action held for approval, in full (docs/approvals.md): what is sent to each object, and every object as it
 * was when the request was made. Objects changed by the time it runs are skipped, not overwritten.
 */
export function BulkRequest({ payload, before }: { payload: unknown; before: unknown }) {
  const asked = (payload ?? {}) as { action?: unknown; key?: unknown; value?: unknown; reviewer?: unknown };
  const rows = Array.isArray(before) ? (before as Array<Record<string, unknown>>) : [];
  const action = isBulkAction(asked.action) ? bulkActions[asked.action] : null;
  return (
    <div className="space-y-2" data-testid="approval-bulk">
      <p className="text-sm">
        {action ? `${action.label}: the console ${action.verb}` : "Changes"} each of these {rows.length} objects, one PATCH each
        {typeof asked.key === "string" ? (
          <>
            {" "}
            (userdata key <code className="font-mono">{asked.key}</code>
            {asked.value !== undefined ? (
              <>
                {" "}
                set to <code className="font-mono">{shown(asked.value)}</code>
              </>
            ) : (
              " removed"
            )}
            ; every other key as it is)
          </>
        ) : null}
        . An object that changed since the request is skipped.
      </p>
      <div className="max-h-96 overflow-auto">
        <Table>
          <thead>
            <tr>
              <Th>Object</Th>
              <Th>Now</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map(({ id, ...now }) => (
              <tr key={String(id)}>
                <Td className="font-mono text-xs break-all">{String(id)}</Td>
                <Td className="font-mono text-xs break-all">{shown(now)}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </div>
  );
}
