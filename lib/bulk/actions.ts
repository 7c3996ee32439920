import { and, eq } from "drizzle-orm";
import { isDeepStrictEqual } from "node:util";
import type { SentChange } from "@/lib/api/bank-proxy";
import type { AuditEntry } from "@/lib/audit/trail";
import type { BankClient } from "@/lib/bank/client";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import * as schema from "@/lib/db/console-schema";
import { can } from "@/lib/permissions";
import { assignCase, indexedApplication, unassignCase } from "@/lib/reviews/store";
import type { BulkActionName } from "./codes";

/** What the rows of a bulk action are sent with; lib/bulk/console-bulk.ts wires the real ones. */
export interface BulkSendDependencies {
  db(): Promise<ConsoleDb>;
  /** The bank as the console's server reads it (unmasked): what a row is compared with before it is sent. */
  bankClient(environment: Environment): Promise<BankClient | null>;
  /**
   * Sends one bank change through the proxy's own mutation path as `user` (lib/api/bank-proxy.ts `sendApproved`):
   * the permission, the body's schema, the console's own webhooks refused, the audit record, as a single change. The
   * change carries the row's object as just read (`before`), so the audit record's before costs no second read.
   */
  sendBankChange(change: SentChange, user: StaffUser, requestId: string): Promise<unknown>;
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
}

export interface RowContext {
  environment: Environment;
  params: Record<string, unknown>;
  user: StaffUser;
  requestId: string;
}

/** An object as a bulk action compares it: null when it does not exist (any more). */
export type Current = Record<string, unknown> | null;

export interface ServerAction {
  read(dependencies: BulkSendDependencies, environment: Environment, id: string): Promise<Current>;
  /** What a row is compared on: the object's `updated_at` and the value the action replaces. */
  seen(object: Record<string, unknown>): unknown;
  /** The object already is as the action makes it (sent before a restart, or by someone else). */
  applied(object: Record<string, unknown>, params: Record<string, unknown>): boolean;
  /** Why this object is refused without sending anything, if it is. */
  refusal?(object: Record<string, unknown>): string | null;
  send(dependencies: BulkSendDependencies, context: RowContext, id: string, object: Record<string, unknown>): Promise<unknown>;
}

/** A bank object read as the server sees it; a 404 is null. */
async function readBank(
  dependencies: BulkSendDependencies,
  environment: Environment,
  operationId: "get_network_transfer" | "get_webhook",
  id: string,
) {
  const bank = await dependencies.bankClient(environment);
  if (!bank) throw new Error(`the ${environment} environment has no bank connection`);
  try {
    return (await bank.call(operationId, { params: { id } })) as Record<string, unknown>;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
}

const userdataOf = (object: Record<string, unknown>) =>
  object.userdata && typeof object.userdata === "object" ? (object.userdata as Record<string, unknown>) : {};

function userdataAction(change: (userdata: Record<string, unknown>, params: Record<string, unknown>) => Record<string, unknown>): ServerAction {
  return {
    read: (dependencies, environment, id) => readBank(dependencies, environment, "get_network_transfer", id),
    seen: (object) => ({ updated_at: object.updated_at, userdata: object.userdata ?? null }),
    applied: (object, params) => isDeepStrictEqual(change(userdataOf(object), params), userdataOf(object)),
    send: (dependencies, context, id, object) =>
      dependencies.sendBankChange(
        {
          environment: context.environment,
          operationId: "patch_network_transfer",
          params: { id },
          body: { userdata: change(userdataOf(object), context.params) },
          before: object,
        },
        context.user,
        context.requestId,
      ),
  };
}

function webhookAction(status: "enabled" | "disabled", onlyFrom?: "error"): ServerAction {
  return {
    read: (dependencies, environment, id) => readBank(dependencies, environment, "get_webhook", id),
    seen: (object) => ({ updated_at: object.updated_at, status: object.status }),
    applied: (object) => object.status === status,
    refusal: (object) => (onlyFrom && object.status !== onlyFrom ? `not reset: the webhook is ${String(object.status)}, not in error` : null),
    send: (dependencies, context, id, object) =>
      dependencies.sendBankChange(
        { environment: context.environment, operationId: "patch_webhook", params: { id }, body: { status }, before: object },
        context.user,
        context.requestId,
      ),
  };
}

/** A review case's assignment as the console holds it (cases are the console's own, docs/reviews.md). */
async function readCaseAssignment(dependencies: BulkSendDependencies, environment: Environment, id: string): Promise<Current> {
  const db = await dependencies.db();
  if (!(await indexedApplication(db, environment, id))) return null;
  const { reviewCases } = schema;
  const [row] = await db
    .select({ assigneeId: reviewCases.assigneeId, state: reviewCases.state, updatedAt: reviewCases.updatedAt })
    .from(reviewCases)
    .where(and(eq(reviewCases.environment, environment), eq(reviewCases.applicationId, id)));
  return { assigneeId: row?.assigneeId ?? null, state: row?.state ?? "open", updated_at: row?.updatedAt.toISOString() ?? null };
}

const reviewer = (params: Record<string, unknown>) => params.reviewer as { id: string; email: string };

function reviewAction(assign: boolean): ServerAction {
  const action = assign ? "review.assign" : "review.unassign";
  return {
    read: readCaseAssignment,
    seen: (object) => ({ updated_at: object.updated_at, assigneeId: object.assigneeId }),
    applied: (object, params) => object.assigneeId === (assign ? reviewer(params).id : null),
    // Audited exactly as the queue's own assign and unassign (lib/reviews/actions.ts).
    send: async (dependencies, context, id) => {
      const db = await dependencies.db();
      const { user, environment } = context;
      const entry = {
        actor: { id: user.id, email: user.email, role: user.role },
        environment,
        action,
        targetId: id,
        before: null,
        requestId: context.requestId,
      };
      return dependencies.audited(
        entry,
        (): Promise<unknown> =>
          assign
            ? assignCase(db, environment, id, reviewer(context.params))
            : unassignCase(db, environment, id, { id: user.id, email: user.email }, can(user.role, "staff:manage")),
        { after: (value) => value },
      );
    },
  };
}

export const serverActions: Record<BulkActionName, ServerAction> = {
  "userdata.set": userdataAction((userdata, params) => ({ ...userdata, [String(params.key)]: params.value })),
  "userdata.remove": userdataAction((userdata, params) => Object.fromEntries(Object.entries(userdata).filter(([key]) => key !== params.key))),
  "webhook.enable": webhookAction("enabled"),
  "webhook.disable": webhookAction("disabled"),
  "webhook.reset": webhookAction("enabled", "error"),
  "review.assign": reviewAction(true),
  "review.unassign": reviewAction(false),
};

/** Whether the object is still what it was when the job was asked: compared as stored (JSON). */
export const unchangedSince = (seen: unknown, now: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(now ?? null)), seen ?? null);
