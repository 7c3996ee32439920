import { apiRoute } from "@/lib/api";
import { consoleSandboxRoutes } from "@/lib/sandbox-control/console-routes";

/**
 * The console's sandbox-only controls, `/api/sandbox/...` (docs/sandbox-control.md, "In the console"): the sandbox
 * bank's clock, failures, reset, snapshots and transitions, each behind its permission, and a 404 in any environment
 * but the sandbox. The bank proxy (/api/bank) never reaches the bank's `/sandbox/...`.
 */
const handler = apiRoute(consoleSandboxRoutes);

// PATCH has no route: exported so that it is the console's 404 like any other path, not Next.js's bare 405.
export { handler as DELETE, handler as GET, handler as PATCH, handler as POST, handler as PUT };
