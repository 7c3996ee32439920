import "server-only";
import { approvalService } from "@/lib/approvals/service";
import { audited, recordAuditEvent } from "@/lib/audit";
import { consoleBankClient } from "@/lib/bank/console-client";
import { describeConnection, encryptionKey, getActiveEnvironment } from "@/lib/credentials";
import { applyCredentialsChange } from "@/lib/credentials/apply";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { consoleAddress } from "@/lib/index/runtime";
import { startApprovedBulk } from "@/lib/bulk/process-runner";
import { bankProxyResolver, type BankProxy } from "./bank-proxy";
import { indexCopies } from "./index-fallback";

/**
 * Four-eyes on changes wired to the console's database, audit trail and credentials; an approved bank change goes out
 * through the proxy below (docs/approvals.md).
 */
export const consoleApprovals = approvalService({
  db: async () => (await consoleDb()).db,
  audited,
  recordAuditEvent,
  expiryMs: () => env.APPROVAL_EXPIRY_HOURS * 3_600_000,
  encryptionKey,
  sendBank: (change, approver, requestId) => consoleBankProxy.sendApproved(change, approver, requestId),
  bankBefore: (change) => consoleBankProxy.heldBeforeNow(change),
  applyCredentials: async (change, approver, makerEmail, requestId) =>
    applyCredentialsChange(
      { db: async () => (await consoleDb()).db, encryptionKey, describeConnection, audited },
      change,
      approver,
      makerEmail,
      requestId,
    ),
  describeConnection,
  startBulk: startApprovedBulk,
});

/** The proxy wired to the console's real environment, bank client and audit trail; used by the route and by pages. */
export const consoleBankProxy: BankProxy = bankProxyResolver({
  activeEnvironment: getActiveEnvironment,
  bankClient: consoleBankClient,
  audited,
  recordAuditEvent,
  revealMinutes: () => env.REVEAL_MINUTES,
  outageRetryAfterSeconds: env.BANK_BREAKER_HALF_OPEN_SECONDS,
  approvals: consoleApprovals,
  consoleAddress,
  indexCopies: indexCopies(async () => (await consoleDb()).db),
});
