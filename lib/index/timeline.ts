import { and, desc, eq } from "drizzle-orm";
import { listAuditRecords, type AuditRecord } from "@/lib/audit/trail";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { valueAt } from "@/lib/format";
import { jsonDiff } from "@/lib/json-diff";
import { can, type Role } from "@/lib/permissions";
import { maskedValue, maskForRole } from "@/lib/pii";
import { isReviewKind } from "@/lib/reviews/codes";
import { reviewActionWords } from "@/lib/reviews/words";
import { maxLagMs, runOfToken } from "@/lib/simulations/runs";
import type { FieldChange } from "./store";
import type { ConsoleDb } from "@/lib/db/console-db";

type VersionRow = typeof schema.bankObjectVersions.$inferSelect;
type InboxRow = typeof schema.bankEventInbox.$inferSelect;

/** One field that changed, as this viewer may see it: `before`/`after` absent when the field was (added/removed). */
export interface ShownChange {
  path: string;
  kind: FieldChange["kind"];
  before?: unknown;
  after?: unknown;
}

/** A state of the object the index kept: the first one seen, a change, or the bank answering 404 (`gone`). */
export interface VersionEntry {
  kind: "version";
  key: string;
  at: string;
  version: number;
  source: VersionRow["source"];
  /** No earlier version of the object was ever kept: this is where the console started watching it. */
  first: boolean;
  gone: boolean;
  /** The status before and after, when this version changed it (or the first version's status as `after`). */
  status: { before: string | null; after: string | null } | null;
  /** The object's `error` as of this version (an ACH return reason, `R03 …`), shown beside a status change. */
  error: string | null;
  changes: ShownChange[];
}

/** A notification the bank sent about the object, with what processing it found. */
export interface EventEntry {
  kind: "event";
  key: string;
  at: string;
  event: string;
  deliveries: number;
  lastReceivedAt: string;
  state: InboxRow["state"];
  outcome: InboxRow["outcome"];
  /** The version this notification's processing kept, when that version is in the timeline. */
  version: number | null;
  attempts: number;
  error: string | null;
}

/** A console audit record about the object; `changes` is null for roles without `audit:read`. */
export interface AuditEntry {
  kind: "audit";
  key: string;
  at: string;
  action: string;
  actorEmail: string;
  role: string;
  outcome: AuditRecord["outcome"];
  error: string | null;
  changes: ShownChange[] | null;
  /** A reveal of personal data: the fields it showed and the reason given (roles with `audit:read` only). */
  reveal: { fields: string[]; reason: string } | null;
  /** A compliance review step in words (lib/reviews/words.ts), shown instead of its action code; null for others. */
  words: string | null;
}

export type TimelineEntry = VersionEntry | EventEntry | AuditEntry;

export interface Timeline {
  /** Newest first. */
  entries: TimelineEntry[];
  /** More entries exist than `entries` holds (the oldest are left out). */
  truncated: boolean;
  /** How far back the index has watched the object; null when it has not seen the object at all. */
  watched: {
    since: string;
    /** How the first version was found (the backfill, an event, the sweep); null when that version is not at hand. */
    firstSeenBy: VersionRow["source"] | null;
    goneAt: string | null;
    /** The retention period removed this object's oldest versions (lib/index/retention.ts): the timeline starts later. */
    earlierVersionsPurged: boolean;
  } | null;
  /** Whether this viewer sees the audit records' before and after (and may follow them into `/audit`). */
  showsAuditChanges: boolean;
}

export interface TimelineSources {
  resource: ListedResource;
  /** Newest first; may hold one more, older version than is shown, so the oldest shown one still has its before. */
  versions: VersionRow[];
  events: InboxRow[];
  audits: AuditRecord[];
  object: { firstSeenAt: Date; goneAt: Date | null } | null;
}

const iso = (date: Date) => date.toISOString();
/** Entries of one instant in the order their causes run, newest first: the version an event found, the event, the action that caused it. */
const kindOrder: Record<TimelineEntry["kind"], number> = { version: 0, event: 1, audit: 2 };

/**
 * The path of a change as deep as the viewer may look: cut at the first step masked in either state, so the keys
 * inside a masked value (a transfer's `userdata.ticket`) stay as hidden as its values.
 */
function visiblePath(path: string, states: unknown[]): string {
  const steps = path.split(".");
  for (let depth = 1; depth < steps.length; depth++) {
    const prefix = steps.slice(0, depth).join(".");
    if (states.some((state) => valueAt(state, prefix) === maskedValue)) return prefix;
  }
  return path;
}

/** The changes a version row names, with their values read from the two states after masking both for the viewer. */
function maskedChanges(maskedBefore: Record<string, unknown> | null, maskedAfter: Record<string, unknown>, changes: FieldChange[]): ShownChange[] {
  // Every change moves `updated_at`: it is news only when nothing else changed.
  const listed = changes.length > 1 ? changes.filter((change) => change.path !== "updated_at") : changes;
  const shown = new Map<string, ShownChange>();
  for (const change of listed) {
    const path = visiblePath(change.path, [maskedBefore, maskedAfter]);
    if (shown.has(path)) continue;
    const kind = path === change.path ? change.kind : "changed";
    shown.set(path, {
      path,
      kind,
      ...(kind !== "added" && maskedBefore && { before: valueAt(maskedBefore, path) }),
      ...(kind !== "removed" && { after: valueAt(maskedAfter, path) }),
    });
  }
  return [...shown.values()];
}

const textOf = (value: unknown) => (typeof value === "string" ? value : null);

function versionEntries(resource: ListedResource, versions: VersionRow[], role: Role): VersionEntry[] {
  const masked = new Map(
    versions.map((row) => [
      row.version,
      row.state === null ? null : maskForRole(resource, structuredClone(row.state as Record<string, unknown>), role),
    ]),
  );
  return versions.map((row) => {
    const after = masked.get(row.version) ?? null;
    const before = masked.get(row.version - 1) ?? null;
    const first = row.version === 1;
    const statusChanged = after !== null && textOf(after.status) !== null && (first || textOf(before?.status) !== textOf(after.status));
    return {
      kind: "version",
      key: `version-${row.id}`,
      at: iso(row.seenAt),
      version: row.version,
      source: row.source,
      first,
      gone: row.state === null,
      status: statusChanged ? { before: first ? null : textOf(before?.status), after: textOf(after.status) } : null,
      error: after ? textOf(after.error) : null,
      changes: after ? maskedChanges(before, after, row.changes as FieldChange[]) : [],
    };
  });
}

/**
 * What a role without `audit:read` is told of a failure: that it failed, not the text (a bank error names internal
 * addresses, the console's port, the bank's replies).
 */
export const failureSummary = {
  audit: "Failed; the reason is in the audit log.",
  event: "the bank could not be read",
} as const;

function eventEntry(row: InboxRow, versionOfEvent: Map<number, number>, showDetails: boolean): EventEntry {
  return {
    kind: "event",
    key: `event-${row.id}`,
    at: iso(row.receivedAt),
    event: row.event,
    deliveries: row.deliveries,
    lastReceivedAt: iso(row.lastReceivedAt),
    state: row.state,
    outcome: row.outcome,
    version: versionOfEvent.get(row.id) ?? null,
    attempts: row.attempts,
    error: row.error && (showDetails ? row.error : failureSummary.event),
  };
}

/**
 * The audit trail keeps bank objects unmasked (it is evidence), so its before and after go only to roles that may
 * read the audit log anyway; everyone else sees who did what, when, and how it ended.
 */
function auditEntry(record: AuditRecord, showChanges: boolean, resource: ListedResource): AuditEntry {
  const changes =
    showChanges && record.before != null && record.after != null
      ? jsonDiff(record.before, record.after).filter((change) => change.path !== "updated_at")
      : null;
  return {
    kind: "audit",
    key: `audit-${record.id}`,
    at: record.at,
    action: record.action,
    actorEmail: record.actorEmail,
    role: record.role,
    outcome: record.outcome,
    error: record.error && (showChanges ? record.error : failureSummary.audit),
    changes: showChanges ? (changes ?? []) : null,
    reveal: showChanges ? revealOf(record) : null,
    words: isReviewKind(resource) ? reviewActionWords(resource, record.action, record.after, showChanges) : null,
  };
}

function revealOf(record: AuditRecord): AuditEntry["reveal"] {
  const after = record.after as { fields?: unknown; reason?: unknown } | null;
  if (!record.action.endsWith(".reveal") || !after || typeof after.reason !== "string" || !Array.isArray(after.fields)) return null;
  return { fields: after.fields.filter((field): field is string => typeof field === "string"), reason: after.reason };
}

/**
 * The userdata editor's read of the current value (`<resource>.userdata.read`): opening the editor changes nothing, so
 * it is not a timeline entry for roles that do not read the audit log; the audit record stays, and `/audit` and roles
 * with `audit:read` still see who read the unmasked value.
 */
export const isEditorRead = (action: string) => action.endsWith(".userdata.read");

/** Merges what the three sources hold about one object into one list, newest first, masked for `role`. */
export function mergeTimeline(sources: TimelineSources, role: Role, limit: number): Timeline {
  const showsAuditChanges = can(role, "audit:read");
  const versionOfEvent = new Map(sources.versions.flatMap((row) => (row.eventId === null ? [] : [[row.eventId, row.version] as const])));
  const all: TimelineEntry[] = [
    ...(sources.versions.length > 0 ? versionEntries(sources.resource, sources.versions, role) : []),
    ...sources.events.map((row) => eventEntry(row, versionOfEvent, showsAuditChanges)),
    ...sources.audits
      .filter((record) => showsAuditChanges || !isEditorRead(record.action))
      .map((record) => auditEntry(record, showsAuditChanges, sources.resource)),
  ];
  all.sort(
    (a, b) => Date.parse(b.at) - Date.parse(a.at) || kindOrder[a.kind] - kindOrder[b.kind] || b.key.localeCompare(a.key, "en", { numeric: true }),
  );
  const oldestVersion = sources.versions.at(-1);
  const everyVersionRead = sources.versions.length <= limit;
  return {
    entries: all.slice(0, limit),
    truncated: all.length > limit,
    watched: sources.object && {
      since: iso(sources.object.firstSeenAt),
      firstSeenBy: oldestVersion?.version === 1 ? oldestVersion.source : null,
      goneAt: sources.object.goneAt && iso(sources.object.goneAt),
      earlierVersionsPurged: everyVersionRead && oldestVersion !== undefined && oldestVersion.version > 1,
    },
    showsAuditChanges,
  };
}

export interface TimelineQuery {
  environment: Environment;
  resource: ListedResource;
  objectId: string;
  /** The viewer's role: decides what of the audit records is shown. */
  role: Role;
  /** At most this many entries, the newest. */
  limit?: number;
}

/**
 * The timeline of one bank object, read fresh on every call (a detail page refreshes it when the object changes):
 * the versions the index kept, the bank's notifications about it and the console's audit records of it.
 */
export async function readTimeline(db: ConsoleDb, { environment, resource, objectId, role, limit = 50 }: TimelineQuery): Promise<Timeline> {
  const { bankObjectVersions: versions, bankEventInbox: inbox, bankObjects: objects } = schema;
  // One row more than shown of each source: the merged list's newest `limit` come from these, and the extra version
  // gives the oldest shown version its previous state.
  const [versionRows, eventRows, audits, [object]] = await Promise.all([
    db
      .select()
      .from(versions)
      .where(and(eq(versions.environment, environment), eq(versions.objectId, objectId)))
      .orderBy(desc(versions.version))
      .limit(limit + 1),
    db
      .select()
      .from(inbox)
      .where(and(eq(inbox.environment, environment), eq(inbox.objectId, objectId)))
      .orderBy(desc(inbox.receivedAt), desc(inbox.id))
      .limit(limit + 1),
    listAuditRecords(db, { target: objectId, environment }, { limit: limit + 1 }),
    db
      .select({ firstSeenAt: objects.firstSeenAt, goneAt: objects.goneAt })
      .from(objects)
      .where(and(eq(objects.environment, environment), eq(objects.id, objectId))),
  ]);
  const madeBy = resource === "digital_wallet_token" ? await simulationOfToken(db, environment, versionRows) : null;
  const withRun = madeBy && !audits.some((record) => record.id === madeBy.id) ? [...audits, madeBy] : audits;
  return mergeTimeline({ resource, versions: versionRows, events: eventRows, audits: withRun, object: object ?? null }, role, limit);
}

/**
 * The simulation run that made a wallet token (lib/simulations/runs.ts): its audit record is about the card, since the
 * bank names the token only afterwards, so the token's History finds it through the card and the token's creation
 * time as the index keeps them. Null when the index has no state of the token or no run fits.
 */
async function simulationOfToken(db: ConsoleDb, environment: Environment, versions: VersionRow[]): Promise<AuditRecord | null> {
  const state = versions.find((row) => row.state !== null)?.state as { id?: unknown; card_id?: unknown; created_at?: unknown } | undefined;
  if (!state || typeof state.id !== "string" || typeof state.card_id !== "string" || typeof state.created_at !== "string") return null;
  const created = Date.parse(state.created_at);
  if (!Number.isFinite(created)) return null;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const runs = await listAuditRecords(
    db,
    { target: state.card_id, action: "simulation.run", from: day(created - maxLagMs), to: day(created + maxLagMs) },
    { limit: 50 },
  );
  const token = { id: state.id, card_id: state.card_id, created_at: state.created_at };
  return runOfToken(
    token,
    runs.filter((record) => record.environment === environment),
  );
}
