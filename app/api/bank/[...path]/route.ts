import { apiRoute } from "@/lib/api";
import { consoleBankProxy } from "@/lib/api/console-bank-proxy";

/**
 * The console's proxy to the bank: `/api/bank/<bank path>` for exactly the operations in lib/api/bank-allowlist.ts
 * (anything else is a 404), each behind its permission, input validation and, for changes, the audit trail.
 */
const handler = apiRoute(consoleBankProxy);

export { handler as DELETE, handler as GET, handler as PATCH, handler as POST };
