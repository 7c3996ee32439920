import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { asConsoleError } from "@/lib/api/errors";
import type { StaffUser } from "@/lib/auth/staff-user";
import { can } from "@/lib/permissions";
import { ReviewRefusal } from "@/lib/reviews/store";
import { createWakeLoop } from "@/lib/wake-loop";
import { serverActions, unchangedSince, type BulkSendDependencies, type Current, type RowContext, type ServerAction } from "./actions";
import { bulkActions, isBulkAction, type BulkActionName, type RowState } from "./codes";
import {
  claimDueJob,
  claimRow,
  finishJob,
  openRows,
  releaseLease,
  renewLease,
  reopenRow,
  settleRow,
  type BulkJobRow,
  type BulkRowRow,
} from "./store";

export interface BulkRunnerOptions extends BulkSendDependencies {
  findUser(id: string): Promise<StaffUser | null>;
  log: Logger;
  /** A job whose holder stops renewing within this is taken by another process (its holder died). */
  leaseMs?: number;
  /** Looks for queued jobs at least this often when nothing wakes it (jobs queued by other processes). */
  pollMs?: number;
  /** Rows of one job in flight at once. */
  concurrency?: number;
  /** Told after each row is settled (tests stop a runner halfway with it). */
  onRowSettled?(jobId: string): void;
}

export interface BulkRunner {
  /** Look for a queued job now (a new job, an approval, a retry). */
  wake(): void;
  /** Lets the rows in flight finish, sends no other, and gives the job's lease back for another process to resume it. */
  stop(): Promise<void>;
}

type Outcome = { state: Exclude<RowState, "pending" | "sending">; reason: string | null };

/** A send that failed, as the row's outcome: a 4xx is the bank (or the console's rules) refusing it, with its reason. */
function failedSend(error: unknown): Outcome {
  if (error instanceof ReviewRefusal) return { state: "refused", reason: error.message };
  const known = asConsoleError(error);
  const message = known?.message ?? (error instanceof Error ? error.message : String(error));
  if (known && known.status < 500) return { state: "refused", reason: message };
  // No answer: the change may or may not have reached the bank, which the object tells on a retry.
  if (known && (known.code === "bank_timeout" || known.code === "bank_unreachable"))
    return { state: "unknown", reason: `${message} Whether the bank applied it is not known; a retry reads the object first.` };
  return { state: "failed", reason: message };
}

type Decision = Outcome | "send" | "reopen";

/**
 * What to do with a row, given the object as just read (null: the bank does not have it) and `seen`, what it was when
 * first read (when a held job was asked, or just before this row's first send; null: never read). `resumed`: the row
 * was found `sending`, left by a process that stopped around its send.
 */
function decide(action: ServerAction, job: BulkJobRow, row: BulkRowRow, object: Current, resumed: boolean): Decision {
  if (!object) return { state: "refused", reason: `${row.objectId} does not exist in the ${job.environment} bank; nothing sent` };
  // A row is sent only once its `seen` is kept (in the same write as its claim): never read means never sent.
  if (resumed && row.seen === null) return "reopen";
  const changed = row.seen !== null && !unchangedSince(row.seen, action.seen(object));
  const refusal = action.refusal?.(object);
  if (action.applied(object, job.params as Record<string, unknown>) && (changed || !refusal)) {
    if (!changed) return { state: "done", reason: "already as asked; not sent" };
    return { state: "done", reason: resumed ? "applied before a restart; not sent again" : "already as asked; not sent again" };
  }
  if (changed)
    return resumed
      ? { state: "unknown", reason: "changed while a restart interrupted its send; not sent again" }
      : { state: "skipped", reason: "changed since it was selected; not sent" };
  if (resumed) return "reopen";
  return refusal ? { state: "refused", reason: `${refusal}; nothing sent` } : "send";
}

/**
 * Runs bulk jobs (lib/bulk): takes a queued job with a lease (renewed while it runs, so a process that dies leaves it to
 * another after `leaseMs`), and settles its rows: each object is read, then its row claimed (`sending`, keeping what it
 * was sent against) before its send and settled after, so no row is sent twice. A row found `sending` (its process died
 * mid-send) is settled by reading the object: already as asked is done, unchanged since it was read is sent, anything
 * else is unknown.
 */
export function startBulkRunner(options: BulkRunnerOptions): BulkRunner {
  const { log } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const concurrency = options.concurrency ?? 4;
  const owner = `bulk-${randomUUID()}`;

  /** Refused before anything is read or sent: the account that sends it may no longer make this change. */
  function refusalOfSender(job: BulkJobRow, user: StaffUser | null): Outcome | null {
    if (!isBulkAction(job.action)) return { state: "refused", reason: `unknown action ${job.action}` };
    const permission = bulkActions[job.action].permission;
    if (!user || user.locked || !can(user.role, permission))
      return { state: "refused", reason: `${user?.email ?? "the account that asked"} may not make this change (needs ${permission}); nothing sent` };
    return null;
  }

  async function send(job: BulkJobRow, row: BulkRowRow, user: StaffUser, object: Record<string, unknown>): Promise<Outcome> {
    const context: RowContext = {
      environment: job.environment,
      params: job.params as Record<string, unknown>,
      user,
      requestId: `bulk_${job.id}_${row.position}`,
    };
    try {
      await serverActions[job.action as BulkActionName].send(options, context, row.objectId, object);
      return { state: "done", reason: null };
    } catch (error) {
      return failedSend(error);
    }
  }

  /** Refused before anything is read, or decided on the object as the bank has it now. */
  async function decideRow(
    job: BulkJobRow,
    row: BulkRowRow,
    user: StaffUser | null,
    resumed: boolean,
  ): Promise<{ decision: Decision; object: Current }> {
    const refusal = refusalOfSender(job, user);
    if (refusal) return { decision: refusal, object: null };
    const action = serverActions[job.action as BulkActionName];
    try {
      const object = await action.read(options, job.environment, row.objectId);
      return { decision: decide(action, job, row, object, resumed), object };
    } catch (error) {
      // The object could not be read: nothing was sent for this row.
      return { decision: { state: "failed", reason: `not sent: ${error instanceof Error ? error.message : String(error)}` }, object: null };
    }
  }

  async function runRow(job: BulkJobRow, row: BulkRowRow, user: StaffUser | null): Promise<void> {
    const db = await options.db();
    const resumed = row.state === "sending";
    const { decision, object } = await decideRow(job, row, user, resumed);
    // Claimed before anything is sent, keeping in the same write what the object was when it is sent (the row's first
    // read): a restart that finds it `sending` compares the object with that.
    const seen = decision === "send" && object ? serverActions[job.action as BulkActionName].seen(object) : null;
    if (!resumed && !(await claimRow(db, job.id, row.position, seen))) return;
    if (decision === "reopen") {
      await reopenRow(db, job.id, row.position);
      return runRow(job, { ...row, state: "pending" }, user);
    }
    const outcome = decision === "send" ? await send(job, row, user!, object!) : decision;
    await settleRow(db, job.id, row.position, outcome.state, outcome.reason);
    options.onRowSettled?.(job.id);
  }

  async function runJob(job: BulkJobRow): Promise<void> {
    const db = await options.db();
    const user = job.runAsId ? await options.findUser(job.runAsId) : null;
    const queue = await openRows(db, job.id);
    let leaseLost = false;
    const renewal = setInterval(() => {
      void renewLease(db, job.id, owner, leaseMs).then(
        (kept) => (leaseLost ||= !kept),
        (error: unknown) => log.warn({ err: error, jobId: job.id }, "could not renew a bulk job's lease"),
      );
    }, leaseMs / 3);
    try {
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let row = queue.shift(); row && !loop.isStopped() && !leaseLost; row = queue.shift()) await runRow(job, row, user);
        }),
      );
    } finally {
      clearInterval(renewal);
    }
    if (loop.isStopped() || leaseLost) return releaseLease(db, job.id, owner);
    if ((await openRows(db, job.id)).length === 0) await finishJob(db, job.id);
    else await releaseLease(db, job.id, owner);
  }

  /** One job per round; after a job another may be waiting. */
  async function round(): Promise<boolean> {
    const job = await claimDueJob(await options.db(), owner, leaseMs);
    if (!job) return false;
    await runJob(job);
    return true;
  }

  const loop = createWakeLoop(round, {
    pollMs: options.pollMs,
    onError: (error) => log.error({ err: error }, "bulk runner round failed"),
  });
  loop.wake();
  return { wake: loop.wake, stop: () => loop.stop() };
}
