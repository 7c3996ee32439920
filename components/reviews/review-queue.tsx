import Link from "next/link";
import { Button } from "@/components/ui/button";
import { type RenderedColumn, type RenderedRow } from "@/components/tables/rendered-table";
import type { StaffUser } from "@/lib/auth/staff-user";
import { can } from "@/lib/permissions";
import { caseStateLabels, caseStates, kindLabels, reviewKinds, slaTone } from "@/lib/reviews/codes";
import { ageOptions } from "@/lib/reviews/filter";
import type { QueueCounts, QueueRow } from "@/lib/reviews/queue";
import { resourceRoutes } from "@/lib/resources/routes";
import { AssignControls } from "./assign-controls";
import { QueueTable } from "./queue-table";

const toneStyle = {
  ok: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  due: "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-200",
  over: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
} as const;
const toneLabel = { ok: "within SLA", due: "SLA due soon", over: "over SLA" } as const;
const selectStyle = "mt-1 block w-full rounded-md border border-line bg-surface px-2 py-1.5 text-sm";

export function formatAge(hours: number): string {
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min`;
  if (hours < 48) return `${Math.floor(hours)} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** The queue's filters as a GET form: the URL is the state. */
function QueueFilters({ query }: { query: Record<string, string> }) {
  const select = (name: string, label: string, options: ReadonlyArray<{ value: string; label: string }>) => (
    <div>
      <label htmlFor={`queue-${name}`} className="block text-sm font-medium text-muted">
        {label}
      </label>
      <select id={`queue-${name}`} name={name} defaultValue={query[name] ?? ""} className={selectStyle}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form
      method="get"
      action="/reviews"
      aria-label="Queue filters"
      className="mb-4 grid gap-3 rounded-md border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-5 [&>*]:min-w-0"
    >
      {select("assignee", "Assignee", [
        { value: "", label: "Anyone" },
        { value: "mine", label: "Mine" },
        { value: "unassigned", label: "Unassigned" },
      ])}
      {select("kind", "Kind", [{ value: "", label: "Both kinds" }, ...reviewKinds.map((kind) => ({ value: kind, label: kindLabels[kind] }))])}
      {select("age", "Age", ageOptions)}
      {select("state", "Decision", [
        { value: "", label: "Undecided (open or awaiting)" },
        ...caseStates.map((state) => ({ value: state, label: caseStateLabels[state] })),
        { value: "any", label: "Any" },
      ])}
      <div className="flex items-end">
        <Button type="submit">Filter</Button>
      </div>
    </form>
  );
}

const plural = (count: number, one: string, many: string) => `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/** How many applications the filters keep (every page) and how many are in each SLA colour, said in words. */
function QueueSummary({ counts, slaHours }: { counts: QueueCounts; slaHours: number }) {
  const { sla } = counts;
  return (
    <p className="mb-2 text-sm" data-testid="queue-summary">
      <strong data-testid="queue-count" data-count={counts.total}>
        {plural(counts.total, "application matches", "applications match")}
      </strong>{" "}
      these filters
      {counts.total > 0 ? (
        <span className="text-muted">
          {" "}
          · {sla.over.toLocaleString("en-US")} over the SLA of {slaHours} h · {sla.due.toLocaleString("en-US")} due soon (older than{" "}
          {formatAge(slaHours * 0.75)}) · {sla.ok.toLocaleString("en-US")} within it. Age counts from the application&apos;s creation at the bank.
        </span>
      ) : null}
    </p>
  );
}

const columns: RenderedColumn[] = [
  { id: "application", header: "Application" },
  { id: "age", header: "Age" },
  { id: "kind", header: "Kind" },
  { id: "state", header: "Decision" },
  { id: "assignee", header: "Assignee" },
  { id: "risk", header: "Risk" },
];

function Age({ hours, slaHours }: { hours: number; slaHours: number }) {
  const tone = slaTone(hours, slaHours);
  return (
    <span
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium tabular-nums ${toneStyle[tone]}`}
      title={`${toneLabel[tone]} (SLA ${slaHours} h)`}
      data-sla={tone}
    >
      {formatAge(hours)}
      <span className="sr-only"> ({toneLabel[tone]})</span>
    </span>
  );
}

function Risk({ risk }: { risk: QueueRow["risk"] }) {
  if (risk.length === 0) return <span className="text-muted">None from the bank</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      {risk.map((entry) => [
        <dt key={`${entry.field}-t`} className="text-muted">
          {entry.field.replaceAll("_", " ")}
        </dt>,
        <dd key={`${entry.field}-d`} className="tabular-nums">
          {String(entry.value)}
        </dd>,
      ])}
    </dl>
  );
}

/** One application's cells; its assign controls sit with it in the pinned first column, on screen at any width. */
function queueRow(row: QueueRow, user: StaffUser, slaHours: number): RenderedRow {
  const href = `${resourceRoutes[row.kind].route}/${encodeURIComponent(row.id)}`;
  return {
    id: row.id,
    href,
    data: { "data-testid": "queue-row" },
    cells: {
      application: (
        <>
          <Link href={href} className="link">
            {row.name}
          </Link>
          <span className="block font-mono text-xs text-muted">{row.id}</span>
          {row.state === "decided" ? null : (
            <div className="mt-1">
              <AssignControls
                applicationId={row.id}
                assigneeId={row.assigneeId}
                assigneeEmail={row.assigneeEmail}
                userId={user.id}
                canUnassignAnyone={can(user.role, "staff:manage")}
              />
            </div>
          )}
        </>
      ),
      age: <Age hours={row.ageHours} slaHours={slaHours} />,
      kind: kindLabels[row.kind],
      state: <span data-testid="queue-state">{caseStateLabels[row.state]}</span>,
      assignee: row.assigneeEmail ?? <span className="text-muted">Unassigned</span>,
      risk: <Risk risk={row.risk} />,
    },
  };
}

/** The review queue: applications from the console's index, oldest first, each with its age against the SLA. */
export function ReviewQueue({
  rows,
  empty,
  user,
  slaHours,
  query,
  counts,
}: {
  rows: QueueRow[];
  /** The filters' exact counts over every page. */
  counts: QueueCounts;
  /** What an empty page says. */
  empty: string;
  user: StaffUser;
  slaHours: number;
  query: Record<string, string>;
}) {
  // The selection belongs to the filters: paging keeps it, another filter drops it.
  const filters = JSON.stringify(Object.entries(query).filter(([name]) => name !== "page_cursor"));
  return (
    <>
      <QueueFilters query={query} />
      <QueueSummary counts={counts} slaHours={slaHours} />
      <QueueTable
        filters={filters}
        columns={columns}
        rows={rows.map((row) => queueRow(row, user, slaHours))}
        empty={<span data-testid="queue-empty">{empty}</span>}
      />
    </>
  );
}
