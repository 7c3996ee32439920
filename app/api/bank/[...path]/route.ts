import { audited, recordAuditEvent } from "@/lib/audit";
import { apiRoute } from "@/lib/api";
import { bankProxyResolver } from "@/lib/api/bank-proxy";
import { consoleBankClient } from "@/lib/bank/console-client";
import { getActiveEnvironment } from "@/lib/credentials";

/**
 * The console's proxy to the bank: `/api/bank/<bank path>` for exactly the operations in lib/api/bank-allowlist.ts
 * (anything else is a 404), each behind its permission, input validation and, for changes, the audit trail.
 */
const handler = apiRoute(
  bankProxyResolver({ activeEnvironment: getActiveEnvironment, bankClient: consoleBankClient, audited, recordAuditEvent }),
);

export { handler as DELETE, handler as GET, handler as PATCH, handler as POST };
