import { and, asc, eq, inArray, isNull, ne, or } from "drizzle-orm";
import { sponsoredRefusal } from "@/lib/approvals/independence";
import type { Environment } from "@/lib/credentials/environments";
import * as schema from "@/lib/db/console-schema";
import { checklistItems, type CaseState, type ChecklistItem, type Decision, type Mark, type ReviewKind } from "./codes";
import type { ConsoleDb } from "@/lib/db/console-db";

const { bankObjects, reviewCases, reviewChecklistItems, reviewChecklistNotes, reviewDecisions, reviewNotes } = schema;

export interface Reviewer {
  id: string;
  email: string;
}

/** Why a case change was refused: told to the reviewer as is (a 4xx, never a 5xx). */
export class ReviewRefusal extends Error {}

export interface ReviewNote {
  id: number;
  authorId: string;
  authorEmail: string;
  at: string;
  text: string;
}

export interface ReviewDecision {
  id: number;
  decision: Decision;
  reasonCode: string;
  note: string;
  state: "proposed" | "confirmed" | "returned";
  proposedById: string;
  proposedByEmail: string;
  proposedAt: string;
  resolvedById: string | null;
  resolvedByEmail: string | null;
  resolvedAt: string | null;
  resolutionNote: string | null;
}

export interface CaseView {
  environment: Environment;
  applicationId: string;
  kind: ReviewKind;
  state: CaseState;
  assigneeId: string | null;
  assigneeEmail: string | null;
  assignedAt: string | null;
  decision: Decision | null;
  reasonCode: string | null;
  decidedAt: string | null;
  /** Each item's mark as last set, and its notes oldest first (a history: a new note is added, none is replaced). */
  items: Array<ChecklistItem & { mark: Mark | null; markedByEmail: string | null; markedAt: string | null; notes: ReviewNote[] }>;
  notes: ReviewNote[];
  decisions: ReviewDecision[];
  /** The application's document ids as the bank gives them (its API serves no document itself). */
  documentIds: string[];
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The application as the index holds it (unmasked: callers mask before showing), or null when not indexed. */
export async function indexedApplication(
  db: ConsoleDb,
  environment: Environment,
  id: string,
): Promise<{ kind: ReviewKind; state: Record<string, unknown> | null; createdAt: Date | null } | null> {
  const [row] = await db
    .select({ resource: bankObjects.resource, state: bankObjects.state, createdAt: bankObjects.bankCreatedAt })
    .from(bankObjects)
    .where(
      and(
        eq(bankObjects.environment, environment),
        eq(bankObjects.id, id),
        inArray(bankObjects.resource, ["person_application", "business_application"]),
      ),
    );
  return row ? { kind: row.resource as ReviewKind, state: row.state as Record<string, unknown> | null, createdAt: row.createdAt } : null;
}

/** A case as the panel shows it; an application without a case yet reads as an open, unassigned one. */
export async function readCase(db: ConsoleDb, environment: Environment, applicationId: string): Promise<CaseView | null> {
  const application = await indexedApplication(db, environment, applicationId);
  if (!application) return null;
  const where = <
    T extends typeof reviewCases | typeof reviewChecklistItems | typeof reviewChecklistNotes | typeof reviewNotes | typeof reviewDecisions,
  >(
    table: T,
  ) => and(eq(table.environment, environment), eq(table.applicationId, applicationId));
  const [[row], marked, itemNotes, notes, proposals] = await Promise.all([
    db.select().from(reviewCases).where(where(reviewCases)),
    db.select().from(reviewChecklistItems).where(where(reviewChecklistItems)),
    db.select().from(reviewChecklistNotes).where(where(reviewChecklistNotes)).orderBy(asc(reviewChecklistNotes.id)),
    db.select().from(reviewNotes).where(where(reviewNotes)).orderBy(asc(reviewNotes.id)),
    db.select().from(reviewDecisions).where(where(reviewDecisions)).orderBy(asc(reviewDecisions.id)),
  ]);
  const marks = new Map(marked.map((item) => [item.item, item]));
  const noteView = (note: (typeof notes)[number]): ReviewNote => ({
    id: note.id,
    authorId: note.authorId,
    authorEmail: note.authorEmail,
    at: note.at.toISOString(),
    text: note.text,
  });
  return {
    environment,
    applicationId,
    kind: application.kind,
    state: row?.state ?? "open",
    assigneeId: row?.assigneeId ?? null,
    assigneeEmail: row?.assigneeEmail ?? null,
    assignedAt: iso(row?.assignedAt ?? null),
    decision: row?.decision ?? null,
    reasonCode: row?.reasonCode ?? null,
    decidedAt: iso(row?.decidedAt ?? null),
    documentIds: Array.isArray(application.state?.document_ids)
      ? (application.state.document_ids as unknown[]).filter((id): id is string => typeof id === "string")
      : [],
    items: checklistItems(application.kind, application.state).map((item) => {
      const mark = marks.get(item.item);
      return {
        ...item,
        mark: mark?.mark ?? null,
        markedByEmail: mark?.markedByEmail ?? null,
        markedAt: iso(mark?.markedAt ?? null),
        notes: itemNotes.filter((note) => note.item === item.item).map(noteView),
      };
    }),
    notes: notes.map(noteView),
    decisions: proposals.map((proposal) => ({
      id: proposal.id,
      decision: proposal.decision,
      reasonCode: proposal.reasonCode,
      note: proposal.note,
      state: proposal.state,
      proposedById: proposal.proposedById,
      proposedByEmail: proposal.proposedByEmail,
      proposedAt: proposal.proposedAt.toISOString(),
      resolvedById: proposal.resolvedById,
      resolvedByEmail: proposal.resolvedByEmail,
      resolvedAt: iso(proposal.resolvedAt),
      resolutionNote: proposal.resolutionNote,
    })),
  };
}

/** The case's row, made (open, unassigned) on first use; refused for an application the index does not hold. */
async function caseRow(db: ConsoleDb, environment: Environment, applicationId: string) {
  const application = await indexedApplication(db, environment, applicationId);
  if (!application) throw new ReviewRefusal(`application: ${applicationId} is not in the console's index of the ${environment} bank`);
  await db.insert(reviewCases).values({ environment, applicationId, kind: application.kind }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(reviewCases)
    .where(and(eq(reviewCases.environment, environment), eq(reviewCases.applicationId, applicationId)));
  return { row: row!, application };
}

const caseWhere = (environment: Environment, applicationId: string) =>
  and(eq(reviewCases.environment, environment), eq(reviewCases.applicationId, applicationId));

/** Takes an unassigned case (or one already the reviewer's): one reviewer at a time, decided by one UPDATE. */
export async function assignCase(db: ConsoleDb, environment: Environment, applicationId: string, reviewer: Reviewer) {
  await caseRow(db, environment, applicationId);
  const [taken] = await db
    .update(reviewCases)
    .set({ assigneeId: reviewer.id, assigneeEmail: reviewer.email, assignedAt: new Date(), updatedAt: new Date() })
    .where(and(caseWhere(environment, applicationId), or(isNull(reviewCases.assigneeId), eq(reviewCases.assigneeId, reviewer.id))))
    .returning();
  if (!taken) {
    const [row] = await db.select({ assigneeEmail: reviewCases.assigneeEmail }).from(reviewCases).where(caseWhere(environment, applicationId));
    throw new ReviewRefusal(`assignee: this case is assigned to ${row?.assigneeEmail ?? "another reviewer"}; they must unassign it first`);
  }
  return { assigneeId: taken.assigneeId, assigneeEmail: taken.assigneeEmail };
}

/** Gives a case back: its assignee may, or anyone allowed to (`anyone`: an admin). */
export async function unassignCase(db: ConsoleDb, environment: Environment, applicationId: string, reviewer: Reviewer, anyone: boolean) {
  const { row } = await caseRow(db, environment, applicationId);
  if (row.assigneeId === null) throw new ReviewRefusal("assignee: this case is not assigned");
  if (row.assigneeId !== reviewer.id && !anyone)
    throw new ReviewRefusal(`assignee: this case is assigned to ${row.assigneeEmail}; only they can unassign it`);
  await db
    .update(reviewCases)
    .set({ assigneeId: null, assigneeEmail: null, assignedAt: null, updatedAt: new Date() })
    .where(and(caseWhere(environment, applicationId), eq(reviewCases.assigneeId, row.assigneeId)));
  return { previousAssigneeEmail: row.assigneeEmail };
}

async function workedBy(db: ConsoleDb, environment: Environment, applicationId: string, reviewer: Reviewer) {
  const found = await caseRow(db, environment, applicationId);
  if (found.row.assigneeId !== reviewer.id) {
    throw new ReviewRefusal(
      found.row.assigneeId ? `assignee: this case is assigned to ${found.row.assigneeEmail}` : "assignee: assign this case to yourself first",
    );
  }
  if (found.row.state === "decided") throw new ReviewRefusal("state: this case is decided; nothing of it changes any more");
  return found;
}

/**
 * Marks one checklist item (the assignee only, while the case is not decided); a note is added to the item's history,
 * never replacing an earlier one (the table refuses UPDATE and DELETE, like a case's notes).
 */
export async function markItem(
  db: ConsoleDb,
  environment: Environment,
  applicationId: string,
  reviewer: Reviewer,
  item: string,
  mark: Mark,
  note: string | null,
) {
  const { application, row } = await workedBy(db, environment, applicationId, reviewer);
  if (row.state === "awaiting_second_review")
    throw new ReviewRefusal("state: a decision awaits second review; the checklist is frozen until it is confirmed or sent back");
  const known = checklistItems(application.kind, application.state).map((candidate) => candidate.item);
  if (!known.includes(item)) throw new ReviewRefusal(`item: expected one of ${known.join(", ")}`);
  const values = { mark, markedById: reviewer.id, markedByEmail: reviewer.email, markedAt: new Date() };
  await db.transaction(async (tx) => {
    await tx
      .insert(reviewChecklistItems)
      .values({ environment, applicationId, item, ...values })
      .onConflictDoUpdate({ target: [reviewChecklistItems.environment, reviewChecklistItems.applicationId, reviewChecklistItems.item], set: values });
    if (note)
      await tx
        .insert(reviewChecklistNotes)
        .values({ environment, applicationId, item, authorId: reviewer.id, authorEmail: reviewer.email, text: note });
  });
  return { item, mark, note };
}

/** Adds a note (any reviewer, whether assigned or not): notes are never edited or deleted. */
export async function addNote(db: ConsoleDb, environment: Environment, applicationId: string, reviewer: Reviewer, text: string) {
  await caseRow(db, environment, applicationId);
  const [note] = await db
    .insert(reviewNotes)
    .values({ environment, applicationId, authorId: reviewer.id, authorEmail: reviewer.email, text })
    .returning();
  return { id: note!.id, text };
}

/** Proposes a decision (the assignee): the case then awaits a second reviewer. */
export async function proposeDecision(
  db: ConsoleDb,
  environment: Environment,
  applicationId: string,
  reviewer: Reviewer,
  proposal: { decision: Decision; reasonCode: string; note: string },
) {
  const { row } = await workedBy(db, environment, applicationId, reviewer);
  if (row.state !== "open") throw new ReviewRefusal("state: a decision already awaits second review");
  return db.transaction(async (tx) => {
    const [moved] = await tx
      .update(reviewCases)
      .set({ state: "awaiting_second_review", updatedAt: new Date() })
      .where(and(caseWhere(environment, applicationId), eq(reviewCases.state, "open"), eq(reviewCases.assigneeId, reviewer.id)))
      .returning();
    if (!moved) throw new ReviewRefusal("state: the case changed meanwhile; reload it");
    const [proposed] = await tx
      .insert(reviewDecisions)
      .values({ environment, applicationId, ...proposal, proposedById: reviewer.id, proposedByEmail: reviewer.email })
      .returning({ id: reviewDecisions.id });
    return { decisionId: proposed!.id, ...proposal };
  });
}

/**
 * Confirms or sends back the proposed decision `decisionId`: never by its proposer (checked here, in the UPDATE's
 * condition and by the table's CHECK), once only (two resolvers at once: one UPDATE finds it `proposed`). Nor is it
 * confirmed by an account the proposer created or last promoted (lib/approvals/independence.ts).
 */
export async function resolveDecision(
  db: ConsoleDb,
  environment: Environment,
  applicationId: string,
  reviewer: Reviewer,
  resolution: { decisionId: number; outcome: "confirmed" | "returned"; note: string | null },
) {
  return db.transaction(async (tx) => {
    const [proposal] = await tx
      .select()
      .from(reviewDecisions)
      .where(
        and(
          eq(reviewDecisions.id, resolution.decisionId),
          eq(reviewDecisions.environment, environment),
          eq(reviewDecisions.applicationId, applicationId),
        ),
      );
    if (!proposal) throw new ReviewRefusal(`decision: no decision ${resolution.decisionId} on this case`);
    if (proposal.proposedById === reviewer.id)
      throw new ReviewRefusal("decision: you proposed this decision; a different reviewer must confirm or send it back (four-eyes)");
    if (proposal.state !== "proposed") throw new ReviewRefusal(`decision: already ${proposal.state} by ${proposal.resolvedByEmail}`);
    const sponsored =
      resolution.outcome === "confirmed"
        ? await sponsoredRefusal(tx, reviewer.id, { id: proposal.proposedById, email: proposal.proposedByEmail })
        : null;
    if (sponsored) throw new ReviewRefusal(`decision: ${sponsored}`);
    const now = new Date();
    const [resolved] = await tx
      .update(reviewDecisions)
      .set({
        state: resolution.outcome,
        resolvedById: reviewer.id,
        resolvedByEmail: reviewer.email,
        resolvedAt: now,
        resolutionNote: resolution.note,
      })
      .where(and(eq(reviewDecisions.id, proposal.id), eq(reviewDecisions.state, "proposed"), ne(reviewDecisions.proposedById, reviewer.id)))
      .returning();
    if (!resolved) throw new ReviewRefusal("decision: already resolved by another reviewer");
    await tx
      .update(reviewCases)
      .set(
        resolution.outcome === "confirmed"
          ? { state: "decided", decision: proposal.decision, reasonCode: proposal.reasonCode, decidedAt: now, updatedAt: now }
          : { state: "open", updatedAt: now },
      )
      .where(caseWhere(environment, applicationId));
    return {
      decisionId: proposal.id,
      decision: proposal.decision,
      reasonCode: proposal.reasonCode,
      outcome: resolution.outcome,
      proposedBy: proposal.proposedByEmail,
    };
  });
}
