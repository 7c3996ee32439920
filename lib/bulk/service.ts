import { randomUUID } from "node:crypto";
import { ConsoleError, badInput, forbidden, notFound } from "@/lib/api/errors";
import type { ApprovalAnswer } from "@/lib/approvals/codes";
import { approvalUrl } from "@/lib/approvals/codes";
import { readChangeRequest, viewOf } from "@/lib/approvals/store";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import { can, type Permission } from "@/lib/permissions";
import { serverActions, type BulkSendDependencies } from "./actions";
import { bulkActions, bulkAuditAction, retriedStates, type BulkActionName, type BulkJobView, type JobStatus } from "./codes";
import { closeJob, countRows, createBulkJob, queueApprovedJob, readJob, readRows, reopenFailedRows, setApprovalOf, type BulkJobRow } from "./store";

/** What the bulk service needs beyond sending rows; lib/bulk/console-bulk.ts wires the real ones. */
export interface BulkServiceDependencies extends BulkSendDependencies {
  activeEnvironment(): Promise<Environment>;
  findUserByEmail(email: string): Promise<StaffUser | null>;
  /** Four-eyes (lib/approvals): where required, a bank bulk action is ONE change request for the whole set. */
  approvals?: {
    required(environment: Environment): Promise<boolean>;
    holdBulk(
      maker: StaffUser,
      requestId: string,
      change: { environment: Environment; action: string; permission: Permission; jobId: string; body: unknown; before: unknown },
    ): Promise<ApprovalAnswer>;
  };
  /** Tells the runner there is work (a new job, an approval, a retry). */
  wakeRunner(): void;
}

export interface BulkRequest {
  action: BulkActionName;
  resource: string;
  ids: string[];
  key?: string;
  value?: unknown;
  reviewer?: string;
}

/**
 * Objects read at once when a held job is asked (the approver is shown every one): bounded, as the bank is the slow
 * part and it answers other people meanwhile.
 */
const readConcurrency = 8;

async function mapConcurrently<T, R>(items: T[], limit: number, each: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let index = next++; index < items.length; index = next++) results[index] = await each(items[index]!);
    }),
  );
  return results;
}

/**
 * Bulk actions (docs/console-actions.md, "Bulk actions"): `create` checks the request and the role and stores the job;
 * where four-eyes holds it first reads every object (what the approver is shown, and what each row is compared with
 * before it is sent) and holds the job as one change request. Otherwise nothing is read before the 202: the runner
 * reads each object just before its send anyway. `view` is a job's progress and each row's outcome; `retry` sends its
 * failed rows again.
 */
export function bulkService(dependencies: BulkServiceDependencies) {
  async function paramsOf(request: BulkRequest): Promise<Record<string, unknown>> {
    if (request.action === "userdata.set" || request.action === "userdata.remove") {
      if (!request.key?.trim()) throw badInput("key: the userdata key to set or remove is required");
      if (request.action === "userdata.remove") return { key: request.key };
      if (request.value === undefined) throw badInput("value: the value to set is required (any JSON value)");
      return { key: request.key, value: request.value };
    }
    if (request.action === "review.assign") {
      const reviewer = request.reviewer ? await dependencies.findUserByEmail(request.reviewer) : null;
      if (!reviewer || reviewer.locked || !can(reviewer.role, "review:decide"))
        throw badInput("reviewer: expected the email of a staff member who reviews applications (review:decide)");
      return { reviewer: { id: reviewer.id, email: reviewer.email } };
    }
    return {};
  }

  async function create(user: StaffUser, requestId: string, request: BulkRequest) {
    const definition = bulkActions[request.action];
    if (request.resource !== definition.resource)
      throw badInput(`resource: ${request.action} acts on ${definition.resource}, not ${request.resource}`);
    if (!can(user.role, definition.permission)) throw forbidden(`${definition.label} needs ${definition.permission}, which your role does not hold`);
    const ids = [...new Set(request.ids)];
    const params = await paramsOf(request);
    const environment = await dependencies.activeEnvironment();
    const held = definition.fourEyes && dependencies.approvals ? await dependencies.approvals.required(environment) : false;
    const action = serverActions[request.action];
    // Only a held job reads its objects before answering: its request shows the approver every object as it is, and
    // each row is compared with that before its send. An unheld job's rows are read by the runner, once, before each
    // send (`seen` stays null until then), so the 202 does not wait for the bank.
    const rows = held
      ? await mapConcurrently(ids, readConcurrency, async (objectId) => {
          const object = await action.read(dependencies, environment, objectId);
          return object
            ? { objectId, seen: action.seen(object) }
            : { objectId, seen: null, refused: `${objectId} does not exist in the ${environment} bank; nothing sent` };
        })
      : ids.map((objectId) => ({ objectId, seen: null }));
    const id = randomUUID();
    const db = await dependencies.db();
    const job = { id, environment, action: request.action, resource: request.resource, params, requestId, rows };
    await dependencies.audited(
      {
        actor: { id: user.id, email: user.email, role: user.role },
        environment,
        action: bulkAuditAction(request.action),
        targetId: id,
        before: null,
        requestId,
      },
      () =>
        createBulkJob(db, {
          ...job,
          state: held ? "awaiting_approval" : "queued",
          maker: { id: user.id, email: user.email },
          runAsId: held ? null : user.id,
        }),
      { after: () => ({ job: id, params, total: ids.length, held }) },
    );
    if (held) {
      // The approver sees the whole set: what is sent, and every object as it was when asked.
      const answer = await dependencies.approvals!.holdBulk(user, requestId, {
        environment,
        action: bulkAuditAction(request.action),
        permission: definition.permission,
        jobId: id,
        body: { action: request.action, resource: request.resource, ...params, ids },
        before: rows.map((row) => ({ id: row.objectId, ...(row.seen as object | null) })),
      });
      await setApprovalOf(db, id, answer.approval.id);
    } else dependencies.wakeRunner();
    return view(user, id);
  }

  /** A held job's state follows its request: rejected, withdrawn or expired closes it (nothing sent). */
  async function statusOf(job: BulkJobRow, openRows: number): Promise<JobStatus> {
    if (job.state === "awaiting_approval" && job.approvalId) {
      const request = await readChangeRequest(await dependencies.db(), job.approvalId);
      const status = request ? viewOf(request).status : "pending";
      if (status !== "pending" && status !== "approved") {
        await closeJob(await dependencies.db(), job.id);
        return "closed";
      }
    }
    if (job.state === "awaiting_approval" || job.state === "closed") return job.state;
    return job.state === "done" && openRows === 0 ? "done" : "running";
  }

  /** Who may follow a job: its maker, and those who may approve changes or read the audit trail. */
  async function visibleJob(user: StaffUser, id: string): Promise<BulkJobRow> {
    const job = await readJob(await dependencies.db(), id);
    if (!job || (job.makerId !== user.id && !can(user.role, "change:approve") && !can(user.role, "audit:read")))
      throw notFound(`no bulk action ${id}`);
    return job;
  }

  async function view(user: StaffUser, id: string): Promise<BulkJobView> {
    const job = await visibleJob(user, id);
    const db = await dependencies.db();
    const [counts, rows] = await Promise.all([countRows(db, id), readRows(db, id)]);
    return {
      id,
      action: job.action as BulkActionName,
      resource: job.resource,
      environment: job.environment,
      params: job.params as Record<string, unknown>,
      status: await statusOf(job, counts.pending + counts.sending),
      total: rows.length,
      counts,
      changeRequest: job.approvalId ? { id: job.approvalId, url: approvalUrl(job.approvalId) } : null,
      maker: job.makerEmail,
      createdAt: job.createdAt.toISOString(),
      finishedAt: job.finishedAt?.toISOString() ?? null,
      rows: rows.map((row) => ({ id: row.objectId, state: row.state, reason: row.reason })),
    };
  }

  async function retry(user: StaffUser, id: string): Promise<BulkJobView> {
    const job = await visibleJob(user, id);
    if (job.makerId !== user.id) throw forbidden("only who asked for a bulk action retries its rows");
    if (job.state === "awaiting_approval" || job.state === "closed")
      throw new ConsoleError(409, "bulk_not_running", "this bulk action was not approved to run; nothing to retry");
    const reopened = await reopenFailedRows(await dependencies.db(), id, retriedStates);
    if (reopened === 0) throw new ConsoleError(409, "nothing_to_retry", "no row of this bulk action was refused, failed or left unknown");
    dependencies.wakeRunner();
    return view(user, id);
  }

  /** An approved request's job becomes runnable, sent as the approver (lib/approvals calls it once, on approval). */
  async function startApproved(jobId: string, approver: StaffUser) {
    const queued = await queueApprovedJob(await dependencies.db(), jobId, approver.id);
    if (!queued) throw new ConsoleError(409, "bulk_not_awaiting", `bulk action ${jobId} is not awaiting approval`);
    dependencies.wakeRunner();
    return { bulk: jobId, status: "running" };
  }

  return { create, view, retry, startApproved };
}

export type BulkService = ReturnType<typeof bulkService>;
