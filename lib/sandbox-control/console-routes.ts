import "server-only";
import { audited, recordAuditEvent } from "@/lib/audit";
import { getActiveEnvironment, getBankConnection } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { purgeEnvironment } from "@/lib/index/retention";
import { consoleAddress, setUpSubscriptions, startBackfill } from "@/lib/index/runtime";
import { log } from "@/lib/log";
import { sandboxControlResolver } from "./routes";

/** The sandbox routes wired to the console's real environment, credentials, transport settings, audit trail and index. */
export const consoleSandboxRoutes = sandboxControlResolver({
  activeEnvironment: getActiveEnvironment,
  bankTarget: getBankConnection,
  transport: { timeoutMs: env.BANK_TIMEOUT_MS, retries: env.BANK_RETRIES, retryBaseMs: env.BANK_RETRY_BASE_MS, retryMaxMs: 5_000, log },
  audited,
  recordAuditEvent,
  consoleAddress,
  index: {
    // As lib/index/runtime.ts's startBankIndex decides whether this console runs the index at all.
    enabled: () => env.INDEX === "on" && env.CREDENTIALS_ENCRYPTION_KEY !== undefined,
    purge: async (environment) => purgeEnvironment((await consoleDb()).db, environment),
    setUpSubscriptions,
    startBackfill,
    log: log.child({ part: "sandbox-control" }),
  },
});
