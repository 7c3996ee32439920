import { SelectField, TextField } from "@/components/ui/field";
import { FilterForm } from "@/components/ui/filter-form";
import { auditActionWords } from "@/lib/audit/action-words";
import type { AuditFilter } from "@/lib/audit/trail";

export function AuditFilters({ filter, actions }: { filter: AuditFilter; actions: string[] }) {
  const exportQuery = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  return (
    <FilterForm action="/audit" label="Filter the audit log" exportHref={`/api/audit/export?${exportQuery}`}>
      <TextField label="Actor" name="actor" defaultValue={filter.actor ?? ""} placeholder="email" />
      <SelectField
        label="Action"
        name="action"
        defaultValue={filter.action ?? ""}
        options={[{ value: "", label: "any" }, ...actions.map((action) => ({ value: action, label: auditActionWords(action) ?? action }))]}
      />
      <TextField label="Target" name="target" defaultValue={filter.target ?? ""} placeholder="id" />
      <TextField label="From (UTC)" name="from" type="date" defaultValue={filter.from ?? ""} />
      <TextField label="To (UTC)" name="to" type="date" defaultValue={filter.to ?? ""} />
      {/* One choice hides every record of a search over masked fields (the search box's and filtered lists'). */}
      <SelectField
        label="Search records"
        name="searches"
        defaultValue={filter.searches ?? ""}
        options={[
          { value: "", label: "shown" },
          { value: "hidden", label: "hidden" },
        ]}
      />
    </FilterForm>
  );
}
