import { SelectField, TextField } from "@/components/ui/field";
import { FilterForm } from "@/components/ui/filter-form";
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
        options={[{ value: "", label: "any" }, ...actions.map((action) => ({ value: action, label: action }))]}
      />
      <TextField label="Target" name="target" defaultValue={filter.target ?? ""} placeholder="id" />
      <TextField label="From (UTC)" name="from" type="date" defaultValue={filter.from ?? ""} />
      <TextField label="To (UTC)" name="to" type="date" defaultValue={filter.to ?? ""} />
    </FilterForm>
  );
}
