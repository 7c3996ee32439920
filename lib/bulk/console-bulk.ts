import "server-only";
import { consoleApprovals, consoleBankProxy } from "@/lib/api/console-bank-proxy";
import { audited } from "@/lib/audit";
import { findStaffByEmail, findStaffById } from "@/lib/auth/staff-users";
import { consoleBankClient } from "@/lib/bank/console-client";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { onShutdown } from "@/lib/health/shutdown";
import { log } from "@/lib/log";
import type { BulkSendDependencies } from "./actions";
import { selectionExportRoute } from "./export";
import { processBulkRunner, setProcessBulkRunner, wakeBulkRunner } from "./process-runner";
import { bulkRoutes } from "./routes";
import { startBulkRunner } from "./runner";
import { bulkService } from "./service";

const sending: BulkSendDependencies = {
  db: async () => (await consoleDb()).db,
  bankClient: consoleBankClient,
  sendBankChange: (change, user, requestId) => consoleBankProxy.sendApproved(change, user, requestId),
  audited,
};

/** Bulk actions wired to the console's database, bank proxy, approvals and audit trail. */
export const consoleBulk = bulkService({
  ...sending,
  activeEnvironment: getActiveEnvironment,
  findUserByEmail: async (email) => findStaffByEmail((await consoleDb()).db, email),
  approvals: consoleApprovals,
  wakeRunner: wakeBulkRunner,
});

export const consoleBulkRoutes = bulkRoutes(() => consoleBulk);

/** The selected rows as CSV (audited like every export). */
export const consoleSelectionExport = selectionExportRoute({ activeEnvironment: getActiveEnvironment, bankClient: consoleBankClient, audited });

/** Called once per server process (instrumentation.ts): the runner resumes any job a stopped process left. */
export function startBulkRuntime(): void {
  if (processBulkRunner()) return;
  const bulkLog = log.child({ part: "bulk" });
  const runner = startBulkRunner({ ...sending, findUser: async (id) => findStaffById((await consoleDb()).db, id), log: bulkLog });
  setProcessBulkRunner(runner);
  onShutdown("bulk runner", async () => {
    await runner.stop();
    bulkLog.info("bulk runner stopped; its job's lease given back");
  });
}
