import { apiRoute, badInput } from "@/lib/api";
import { getActiveEnvironment } from "@/lib/credentials";
import { exportEventsCsv } from "@/lib/index/events-list-export";
import { parseEventsQuery } from "@/lib/index/events-list-input";

/**
 * GET /api/events/export?environment=&event=&object=&from=&to=&outcome= : the received bank notifications matching
 * the events page's filters as CSV (every role that reads bank objects), the export itself audited (`events.export`).
 */
export const GET = apiRoute({
  permission: "bank:read",
  async handle(call) {
    const parsed = parseEventsQuery(call.searchParams, await getActiveEnvironment());
    if (!parsed.ok) throw badInput(parsed.error);
    return exportEventsCsv(parsed.page.filter, call);
  },
});
