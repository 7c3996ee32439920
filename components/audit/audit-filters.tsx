import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import type { AuditFilter } from "@/lib/audit/trail";

/**
 * A plain GET form: submitting it puts the filters in the query string, so the URL is the state (shareable, works
 * without JavaScript, back button included). The export link carries the same filters.
 */
export function AuditFilters({ filter, actions }: { filter: AuditFilter; actions: string[] }) {
  const exportQuery = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  return (
    <form method="get" action="/audit" className="mb-4 grid gap-3 rounded-md border border-line bg-surface p-4 sm:grid-cols-3 lg:grid-cols-6" aria-label="Filter the audit log">
      <TextField label="Actor" name="actor" defaultValue={filter.actor ?? ""} placeholder="email" />
      <SelectField label="Action" name="action" defaultValue={filter.action ?? ""} options={[{ value: "", label: "any" }, ...actions.map((action) => ({ value: action, label: action }))]} />
      <TextField label="Target" name="target" defaultValue={filter.target ?? ""} placeholder="id" />
      <TextField label="From" name="from" type="date" defaultValue={filter.from ?? ""} />
      <TextField label="To" name="to" type="date" defaultValue={filter.to ?? ""} />
      <div className="flex items-end gap-2">
        <Button type="submit">Filter</Button>
        <a className="rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:bg-surface-2" href={`/api/audit/export?${exportQuery}`} download>
          Export CSV
        </a>
      </div>
    </form>
  );
}
