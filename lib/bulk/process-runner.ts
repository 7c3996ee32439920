import "server-only";
import type { StaffUser } from "@/lib/auth/staff-user";
import { consoleDb } from "@/lib/db/console";
import type { BulkRunner } from "./runner";
import { queueApprovedJob } from "./store";
import { ConsoleError } from "@/lib/api/errors";

/**
 * This process's bulk runner, kept on globalThis because Next.js bundles instrumentation.ts and the route handlers
 * separately, each with its own copy of a module (as lib/index/runtime.ts does). Apart from the runner's wiring so
 * that the approvals (imported by the bank proxy) can start an approved job without importing the proxy back.
 */
const processState: { runner: BulkRunner | null } = ((globalThis as { __bulkRunner?: { runner: BulkRunner | null } }).__bulkRunner ??= {
  runner: null,
});

export const processBulkRunner = () => processState.runner;
export const setProcessBulkRunner = (runner: BulkRunner) => (processState.runner = runner);

/** There is work: this process's runner looks now; other processes find it within their poll. */
export const wakeBulkRunner = () => processState.runner?.wake();

/** An approved bulk action becomes runnable, sent as the approver (lib/approvals calls it once, on approval). */
export async function startApprovedBulk(jobId: string, approver: StaffUser) {
  if (!(await queueApprovedJob((await consoleDb()).db, jobId, approver.id)))
    throw new ConsoleError(409, "bulk_not_awaiting", `bulk action ${jobId} is not awaiting approval`);
  wakeBulkRunner();
  return { bulk: jobId, status: "running" };
}
