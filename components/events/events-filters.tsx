import { SelectField, TextField } from "@/components/ui/field";
import { FilterForm } from "@/components/ui/filter-form";
import { eventNames } from "@/lib/contract/events";
import { environments } from "@/lib/credentials/environments";
import { eventOutcomes, filterParameters, type EventOutcome, type EventsFilter } from "@/lib/index/events-list-input";
import { pageSizes } from "@/lib/resources/list-state";

const outcomeLabels: Record<EventOutcome, string> = {
  pending: "pending",
  error: "waiting with error",
  changed: "processed: changed",
  unchanged: "processed: unchanged",
  older: "processed: older",
  gone: "processed: gone",
  dead_letter: "given up (dead letter)",
};

const any = { value: "", label: "any" };

/** A date filter in a datetime-local input: a whole day reads as its first or last minute, which covers the same time. */
function timeInput(value: string | undefined, end: "start" | "end"): string {
  if (!value) return "";
  const time = value.replace(/Z$/, "");
  return time.includes("T") ? time : `${time}T${end === "start" ? "00:00" : "23:59"}`;
}

function TimeField({ label, name, value }: { label: string; name: string; value: string }) {
  // A time to the second keeps its seconds (the input's default step is a minute).
  return <TextField label={label} name={name} type="datetime-local" defaultValue={value} step={value.length > 16 ? 1 : undefined} />;
}

export function EventsFilters({ filter, pageSize }: { filter: EventsFilter; pageSize: number }) {
  const sizes = (pageSizes as readonly number[]).includes(pageSize) ? pageSizes : [...pageSizes, pageSize].sort((a, b) => a - b);
  return (
    <FilterForm action="/events" label="Filter the events" exportHref={`/api/events/export?${new URLSearchParams(filterParameters(filter))}`}>
      <SelectField
        label="Environment"
        name="environment"
        defaultValue={filter.environment}
        options={environments.map((environment) => ({ value: environment, label: environment }))}
      />
      <SelectField
        label="Event"
        name="event"
        defaultValue={filter.event ?? ""}
        options={[any, ...eventNames.map((name) => ({ value: name, label: name }))]}
      />
      <TextField label="Object" name="object" defaultValue={filter.object ?? ""} placeholder="id" />
      <TimeField label="From (UTC)" name="from" value={timeInput(filter.from, "start")} />
      <TimeField label="To (UTC)" name="to" value={timeInput(filter.to, "end")} />
      <SelectField
        label="Outcome"
        name="outcome"
        defaultValue={filter.outcome ?? ""}
        options={[any, ...eventOutcomes.map((outcome) => ({ value: outcome, label: outcomeLabels[outcome] }))]}
      />
      <SelectField
        label="Rows per page"
        name="page_size"
        defaultValue={String(pageSize)}
        options={sizes.map((size) => ({ value: String(size), label: String(size) }))}
      />
    </FilterForm>
  );
}
