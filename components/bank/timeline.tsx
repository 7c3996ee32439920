import "server-only";
import Link from "next/link";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import { consoleDb } from "@/lib/db/console";
import {
  readTimeline,
  type AuditEntry,
  type EventEntry,
  type ShownChange,
  type Timeline as TimelineData,
  type TimelineEntry,
  type VersionEntry,
} from "@/lib/index/timeline";
import { When } from "@/components/format/when";
import type { ResourceName } from "@/lib/resources";
import { readDisplayZone } from "@/lib/time-zone-server";
import { FieldDiff } from "./field-diff";
import { revealFieldLabel } from "./reveal-fields";
import { StatusBadge } from "./status-badge";

const shown = 50;
const outcomeColour = {
  succeeded: "text-emerald-700 dark:text-emerald-400",
  failed: "text-red-700 dark:text-red-400",
  pending: "text-amber-700 dark:text-amber-400",
} as const;
const kindLabel = { version: "State", event: "Event", audit: "Console" } as const;
const kindTitle = {
  version: "A state of the object the console's index kept",
  event: "A notification the bank sent about the object",
  audit: "Something done to the object through the console (audit trail)",
} as const;
const seenBy = { backfill: "by the backfill", event: "from a bank event", sweep: "by the periodic sweep" } as const;
/** Where the entries are drawn: the resource (to read changed values by its fields) and the staff member's zone. */
interface Drawing {
  resource: ResourceName;
  zone: string;
}

/**
 * "Timeline": everything the console knows happened to this object, newest first (the way the audit log and the
 * events page read, and where a live refresh adds the next entry). Read on the server on every request, so
 * `router.refresh()` shows what arrived since; what each role sees of it is decided in `lib/index/timeline.ts`.
 */
export async function Timeline({
  user,
  environment,
  resource,
  id,
}: {
  user: StaffUser;
  environment: Environment;
  resource: ResourceName;
  id: string;
}) {
  let timeline: TimelineData;
  const { zone } = await readDisplayZone();
  const drawing: Drawing = { resource, zone };
  try {
    timeline = await readTimeline((await consoleDb()).db, { environment, resource, objectId: id, role: user.role, limit: shown });
  } catch {
    return (
      <TimelineFrame id={id} withAuditLink={false}>
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          The timeline could not be read, so this object&apos;s history is not shown.
        </p>
      </TimelineFrame>
    );
  }
  return (
    <TimelineFrame id={id} withAuditLink={timeline.showsAuditChanges}>
      <Watched watched={timeline.watched} zone={zone} />
      {timeline.entries.length === 0 ? (
        <p className="mt-2 text-sm text-muted">Nothing has happened to this object that the console knows of.</p>
      ) : (
        <ol className="mt-1 divide-y divide-line text-sm" data-testid="timeline-entries">
          {timeline.entries.map((entry) => (
            <EntryRow key={entry.key} entry={entry} drawing={drawing} />
          ))}
        </ol>
      )}
      {timeline.truncated ? <p className="mt-2 text-xs text-muted">Showing the newest {shown} entries.</p> : null}
    </TimelineFrame>
  );
}

function TimelineFrame({ id, withAuditLink, children }: { id: string; withAuditLink: boolean; children: React.ReactNode }) {
  return (
    // The anchor stays `history`: actions' "its record under History" links (components/actions) point at it.
    <section
      id="history"
      aria-labelledby="timeline-title"
      data-testid="timeline"
      className="@container mt-4 rounded-md border border-line bg-surface p-3"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 id="timeline-title" className="text-xs font-semibold tracking-wide text-muted uppercase">
          {/* No zone here: every time is in the zone the header's Times switch names, and its own tooltip names it too. */}
          Timeline <span className="font-normal tracking-normal normal-case">· newest first</span>
        </h2>
        {withAuditLink ? (
          <Link href={`/audit?${new URLSearchParams({ target: id })}`} className="link text-xs">
            All records in the audit log
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

function Watched({ watched, zone }: { watched: TimelineData["watched"]; zone: string }) {
  return (
    <p data-testid="timeline-watched" className="mt-1 text-xs text-muted">
      {watched ? (
        <>
          Watched since <When at={watched.since} zone={zone} />
          {watched.firstSeenBy ? `, first seen ${seenBy[watched.firstSeenBy]}` : null}; changes at the bank before then are not known to the console.
          {watched.earlierVersionsPurged ? " Its oldest versions are past the retention period and no longer kept." : null}
        </>
      ) : (
        "The console's index has not seen this object yet: no states or bank events are known for it, only what was done through the console."
      )}
    </p>
  );
}

function EntryRow({ entry, drawing }: { entry: TimelineEntry; drawing: Drawing }) {
  return (
    <li
      data-testid={`timeline-${entry.kind}`}
      className="grid items-baseline gap-x-3 gap-y-0.5 py-1.5 @md:grid-cols-[8.75rem_3.75rem_minmax(0,1fr)]"
      {...dataOf(entry)}
    >
      {/* One line of time and kind above the body where the timeline is narrow; two columns of the grid where it is not. */}
      <div className="flex flex-wrap items-baseline gap-x-2 @md:contents">
        <When at={entry.at} zone={drawing.zone} className="font-mono text-xs whitespace-nowrap text-muted tabular-nums" />
        <span title={kindTitle[entry.kind]} className="text-xs font-medium tracking-wide text-muted uppercase">
          {kindLabel[entry.kind]}
        </span>
      </div>
      <div className="min-w-0">
        {entry.kind === "version" ? (
          <VersionBody entry={entry} drawing={drawing} />
        ) : entry.kind === "event" ? (
          <EventBody entry={entry} />
        ) : (
          <AuditBody entry={entry} drawing={drawing} />
        )}
      </div>
    </li>
  );
}

/** What the e2e tests and a reader of the DOM key on, per kind. */
function dataOf(entry: TimelineEntry): Record<`data-${string}`, string | number> {
  if (entry.kind === "version")
    return { "data-version": entry.version, "data-source": entry.source, ...(entry.status?.after && { "data-status": entry.status.after }) };
  if (entry.kind === "event") return { "data-event": entry.event, "data-outcome": entry.outcome ?? entry.state };
  return { "data-action": entry.action, "data-outcome": entry.outcome };
}

function Line({ children, meta }: { children: React.ReactNode; meta?: React.ReactNode }) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
      {children}
      {meta ? <span className="ml-auto font-mono text-xs whitespace-nowrap text-muted">{meta}</span> : null}
    </p>
  );
}

function VersionBody({ entry, drawing }: { entry: VersionEntry; drawing: Drawing }) {
  const meta = `v${entry.version} · ${entry.source}`;
  if (entry.gone) {
    return (
      <Line meta={meta}>
        <span>Deleted at the bank</span>
        <span className="text-xs text-muted">(it answered 404)</span>
      </Line>
    );
  }
  return (
    <>
      <Line meta={meta}>
        {entry.first ? <span>First seen</span> : null}
        {entry.status?.before ? (
          <>
            <StatusBadge status={entry.status.before} />
            <span aria-label="to" className="text-muted">
              →
            </span>
          </>
        ) : null}
        {entry.status?.after ? <StatusBadge status={entry.status.after} /> : null}
        {entry.status && entry.error ? <span className="text-xs">{entry.error}</span> : null}
        {!entry.first && !entry.status ? (
          <span>{entry.changes.length === 1 ? "1 field changed" : `${entry.changes.length} fields changed`}</span>
        ) : null}
      </Line>
      <Changes changes={entry.changes} drawing={drawing} />
    </>
  );
}

function eventOutcome(entry: EventEntry): { text: string; tone?: string } {
  if (entry.state === "processing") return { text: "being processed" };
  if (entry.state === "pending") {
    return entry.error
      ? { text: `could not fetch the object (attempt ${entry.attempts}), retrying: ${entry.error}`, tone: "text-amber-700 dark:text-amber-400" }
      : { text: "waiting to be processed" };
  }
  switch (entry.outcome) {
    case "changed":
      return { text: entry.version ? `found a new state (v${entry.version})` : "found a new state" };
    case "unchanged":
      return { text: "no change" };
    case "older":
      return { text: "an older state than the one kept" };
    case "gone":
      return { text: "object gone at the bank (404)" };
    case "dead_letter":
      return { text: `given up: ${entry.error}`, tone: "text-red-700 dark:text-red-400" };
    default:
      return { text: "processed" };
  }
}

function EventBody({ entry }: { entry: EventEntry }) {
  const outcome = eventOutcome(entry);
  return (
    <Line meta={entry.deliveries > 1 ? `delivered ${entry.deliveries}×` : undefined}>
      <span className="font-mono text-xs break-all">{entry.event}</span>
      <span className={`text-xs ${outcome.tone ?? "text-muted"}`}>{outcome.text}</span>
    </Line>
  );
}

function AuditBody({ entry, drawing }: { entry: AuditEntry; drawing: Drawing }) {
  return (
    <>
      <Line>
        {entry.words ? (
          <span className="min-w-0 break-words">{entry.words}</span>
        ) : (
          <span className="font-mono text-xs break-all">{entry.action}</span>
        )}
        <span className="min-w-0 break-all">
          {entry.actorEmail} <span className="text-muted">({entry.role})</span>
        </span>
        <span className={`text-xs ${outcomeColour[entry.outcome]}`}>{entry.outcome}</span>
      </Line>
      {entry.error ? <p className="text-xs text-red-700 dark:text-red-300">{entry.error}</p> : null}
      {entry.changes ? <Changes changes={entry.changes} drawing={drawing} /> : null}
      {entry.reveal ? (
        <p className="text-xs" data-testid="timeline-reveal">
          Reason: <span className="break-words">{entry.reveal.reason}</span>{" "}
          <span className="text-muted">· fields shown: {entry.reveal.fields.map((field) => revealFieldLabel(field, {})).join(", ") || "none"}</span>
        </p>
      ) : null}
    </>
  );
}

function Changes({ changes, drawing }: { changes: ShownChange[]; drawing: Drawing }) {
  return <FieldDiff changes={changes} resource={drawing.resource} zone={drawing.zone} testId="timeline-changes" itemTestId="timeline-change" />;
}
