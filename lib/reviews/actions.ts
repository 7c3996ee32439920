import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type { AuditEntry } from "@/lib/audit/trail";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import type * as schema from "@/lib/db/console-schema";
import { can, type Permission } from "@/lib/permissions";
import { applicationIdPattern, isDecision, isMark, isReasonCode, textLimits } from "./codes";
import { applicationKindOf, markSentence } from "./words";
import { addNote, assignCase, markItem, proposeDecision, resolveDecision, ReviewRefusal, unassignCase } from "./store";

export interface ReviewActionState {
  error: string | null;
  done: string | null;
}

/** What the review actions need from the console; lib/actions/reviews.ts wires the real ones. */
export interface ReviewActionDependencies {
  /** The signed-in user holding `permission`; otherwise it does not return (redirect to sign-in, or 403). */
  requireUser(permission: Permission): Promise<StaffUser>;
  db(): Promise<NodePgDatabase<typeof schema>>;
  environment(): Promise<Environment>;
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  newRequestId(): string;
  /** Called after a change, so the queue and the case show it. */
  changed(applicationId: string): void;
}

const refused = (error: string): ReviewActionState => ({ error, done: null });

/** A form's text field: trimmed, required or not, at most `max` characters; a string is the refusal naming it. */
function text(form: FormData, field: string, { required, max }: { required: boolean; max: number }): string | null | { refusal: string } {
  const value = form.get(field);
  if (value !== null && typeof value !== "string") return { refusal: `${field}: expected text` };
  const trimmed = (value ?? "").trim();
  if (!trimmed) return required ? { refusal: `${field}: required` } : null;
  if (trimmed.length > max) return { refusal: `${field}: at most ${max} characters` };
  return trimmed;
}
const isRefusal = (value: unknown): value is { refusal: string } => typeof value === "object" && value !== null && "refusal" in value;

/**
 * The compliance reviewer's server actions (docs/reviews.md): each checks its permission on the server, validates its
 * form (a refusal naming the field), and is audited; a refusal by the case's rules (another assignee, four-eyes) is
 * recorded as a failed audit record and told to the reviewer.
 */
export function reviewActions(dependencies: ReviewActionDependencies) {
  async function caseChange<T>(
    permission: Permission,
    form: FormData,
    action: string,
    plan: (input: {
      actor: StaffUser;
      applicationId: string;
    }) =>
      | { refusal: string }
      | { before?: unknown; perform(db: NodePgDatabase<typeof schema>, environment: Environment): Promise<T>; done(result: T): string },
  ): Promise<ReviewActionState> {
    const actor = await dependencies.requireUser(permission);
    const applicationId = form.get("applicationId");
    if (typeof applicationId !== "string" || !applicationIdPattern.test(applicationId))
      return refused("applicationId: expected a person or business application id");
    const planned = plan({ actor, applicationId });
    if ("refusal" in planned) return refused(planned.refusal);
    const [db, environment] = await Promise.all([dependencies.db(), dependencies.environment()]);
    const entry = { actor, environment, action, targetId: applicationId, before: planned.before ?? null, requestId: dependencies.newRequestId() };
    let result: T;
    try {
      result = await dependencies.audited(entry, () => planned.perform(db, environment), { after: (value) => value });
    } catch (error) {
      if (error instanceof ReviewRefusal) return refused(error.message);
      return refused(`${action} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    dependencies.changed(applicationId);
    return { error: null, done: planned.done(result) };
  }
  const reviewer = (actor: StaffUser) => ({ id: actor.id, email: actor.email });

  return {
    async assign(_previous: ReviewActionState, form: FormData) {
      return caseChange("review:decide", form, "review.assign", ({ actor, applicationId }) => ({
        perform: (db, environment) => assignCase(db, environment, applicationId, reviewer(actor)),
        done: () => "Assigned to you",
      }));
    },

    async unassign(_previous: ReviewActionState, form: FormData) {
      return caseChange("review:decide", form, "review.unassign", ({ actor, applicationId }) => ({
        perform: (db, environment) => unassignCase(db, environment, applicationId, reviewer(actor), can(actor.role, "staff:manage")),
        done: () => "Unassigned",
      }));
    },

    async markItem(_previous: ReviewActionState, form: FormData) {
      return caseChange("review:decide", form, "review.checklist.mark", ({ actor, applicationId }) => {
        const item = form.get("item");
        const mark = form.get("mark");
        const note = text(form, "note", { required: false, max: textLimits.itemNote });
        if (typeof item !== "string" || !item) return { refusal: "item: required" };
        if (!isMark(mark)) return { refusal: "mark: expected verified, discrepancy or not_applicable" };
        if (isRefusal(note)) return note;
        return {
          perform: (db, environment) => markItem(db, environment, applicationId, reviewer(actor), item, mark, note),
          done: () => markSentence(applicationKindOf(applicationId), item, mark, note),
        };
      });
    },

    async addNote(_previous: ReviewActionState, form: FormData) {
      return caseChange("review:decide", form, "review.note.add", ({ actor, applicationId }) => {
        const note = text(form, "text", { required: true, max: textLimits.note });
        if (isRefusal(note)) return note;
        return { perform: (db, environment) => addNote(db, environment, applicationId, reviewer(actor), note!), done: () => "Note added" };
      });
    },

    async propose(_previous: ReviewActionState, form: FormData) {
      return caseChange("review:decide", form, "review.decision.propose", ({ actor, applicationId }) => {
        const decision = form.get("decision");
        if (!isDecision(decision)) return { refusal: "decision: expected approve, decline or request_information" };
        const reasonCode = form.get("reasonCode");
        if (!isReasonCode(decision, reasonCode)) return { refusal: `reasonCode: not a reason code for ${decision} (docs/reviews.md lists them)` };
        const note = text(form, "note", { required: true, max: textLimits.note });
        if (isRefusal(note)) return note;
        return {
          perform: (db, environment) => proposeDecision(db, environment, applicationId, reviewer(actor), { decision, reasonCode, note: note! }),
          done: () => "Proposed; awaiting second review",
        };
      });
    },

    /** Confirms (`outcome=confirm`) or sends back (`outcome=return`, with a note) a decision someone else proposed. */
    async resolve(_previous: ReviewActionState, form: FormData) {
      const outcome = form.get("outcome");
      const action = outcome === "return" ? "review.decision.return" : "review.decision.confirm";
      return caseChange("review:confirm", form, action, ({ actor, applicationId }) => {
        if (outcome !== "confirm" && outcome !== "return") return { refusal: "outcome: expected confirm or return" };
        const decisionId = Number(form.get("decisionId"));
        if (!Number.isSafeInteger(decisionId) || decisionId < 1) return { refusal: "decisionId: expected a decision id" };
        const note = text(form, "note", { required: outcome === "return", max: textLimits.note });
        if (isRefusal(note)) return note;
        return {
          perform: (db, environment) =>
            resolveDecision(db, environment, applicationId, reviewer(actor), {
              decisionId,
              outcome: outcome === "confirm" ? "confirmed" : "returned",
              note,
            }),
          done: () => (outcome === "confirm" ? "Decision confirmed" : "Sent back to the reviewer"),
        };
      });
    },
  };
}
