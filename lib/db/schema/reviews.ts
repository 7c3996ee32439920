import { sql } from "drizzle-orm";
import { bigserial, check, index, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { consoleSchema, environment, moment } from "./base";

/**
 * Compliance review (docs/reviews.md): one case per application the console reviews, per environment. The bank has no
 * decision endpoint, so the console's case is the decision of record. `state`: `open` (being worked), `awaiting_second_review`
 * (a decision proposed, not yet confirmed), `decided` (confirmed). One reviewer at a time: `assignee_id`.
 */
export const reviewCases = consoleSchema.table(
  "review_cases",
  {
    environment: environment().notNull(),
    applicationId: text("application_id").notNull(),
    kind: text("kind", { enum: ["person_application", "business_application"] }).notNull(),
    state: text("state", { enum: ["open", "awaiting_second_review", "decided"] })
      .notNull()
      .default("open"),
    assigneeId: text("assignee_id"),
    assigneeEmail: text("assignee_email"),
    assignedAt: moment("assigned_at"),
    /** The confirmed decision (null until a second reviewer confirmed one). */
    decision: text("decision", { enum: ["approve", "decline", "request_information"] }),
    reasonCode: text("reason_code"),
    decidedAt: moment("decided_at"),
    createdAt: moment("created_at").notNull().defaultNow(),
    updatedAt: moment("updated_at").notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.environment, table.applicationId] }),
    index("review_cases_assignee_idx").on(table.environment, table.assigneeId),
  ],
);

/**
 * What a reviewer verified: per case and item (`identity`, `owner:<person application id>`, …) one mark, changed in
 * place; the item's notes are a history of their own (review_checklist_notes).
 */
export const reviewChecklistItems = consoleSchema.table(
  "review_checklist_items",
  {
    environment: environment().notNull(),
    applicationId: text("application_id").notNull(),
    item: text("item").notNull(),
    mark: text("mark", { enum: ["verified", "discrepancy", "not_applicable"] }).notNull(),
    markedById: text("marked_by_id").notNull(),
    markedByEmail: text("marked_by_email").notNull(),
    markedAt: moment("marked_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.environment, table.applicationId, table.item] })],
);

/** A checklist item's notes: append-only like a case's notes (the same trigger; the console's role may only insert). */
export const reviewChecklistNotes = consoleSchema.table(
  "review_checklist_notes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: environment().notNull(),
    applicationId: text("application_id").notNull(),
    item: text("item").notNull(),
    authorId: text("author_id").notNull(),
    authorEmail: text("author_email").notNull(),
    at: moment("at").notNull().defaultNow(),
    text: text("text").notNull(),
  },
  (table) => [index("review_checklist_notes_case_idx").on(table.environment, table.applicationId, table.item, table.id)],
);

/** A case's notes: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE; the console's role may only insert). */
export const reviewNotes = consoleSchema.table(
  "review_notes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: environment().notNull(),
    applicationId: text("application_id").notNull(),
    authorId: text("author_id").notNull(),
    authorEmail: text("author_email").notNull(),
    at: moment("at").notNull().defaultNow(),
    text: text("text").notNull(),
  },
  (table) => [index("review_notes_case_idx").on(table.environment, table.applicationId, table.id)],
);

/**
 * Proposed decisions and their second review: `proposed` until a different staff member confirms it (`confirmed`) or
 * sends it back (`returned`). At most one `proposed` per case; the database refuses a resolver who is the proposer.
 */
export const reviewDecisions = consoleSchema.table(
  "review_decisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    environment: environment().notNull(),
    applicationId: text("application_id").notNull(),
    decision: text("decision", { enum: ["approve", "decline", "request_information"] }).notNull(),
    reasonCode: text("reason_code").notNull(),
    note: text("note").notNull(),
    state: text("state", { enum: ["proposed", "confirmed", "returned"] })
      .notNull()
      .default("proposed"),
    proposedById: text("proposed_by_id").notNull(),
    proposedByEmail: text("proposed_by_email").notNull(),
    proposedAt: moment("proposed_at").notNull().defaultNow(),
    resolvedById: text("resolved_by_id"),
    resolvedByEmail: text("resolved_by_email"),
    resolvedAt: moment("resolved_at"),
    resolutionNote: text("resolution_note"),
  },
  (table) => [
    uniqueIndex("review_decisions_one_proposed")
      .on(table.environment, table.applicationId)
      .where(sql`${table.state} = 'proposed'`),
    index("review_decisions_case_idx").on(table.environment, table.applicationId, table.id),
    check("review_decisions_four_eyes", sql`${table.resolvedById} IS NULL OR ${table.resolvedById} <> ${table.proposedById}`),
  ],
);
