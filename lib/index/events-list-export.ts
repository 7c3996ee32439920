import "server-only";
import type { ApiCall } from "@/lib/api";
import { audited } from "@/lib/audit";
import { csvResponse } from "@/lib/csv/csv-stream";
import { consoleDb } from "@/lib/db/console";
import { auditedCsvExport } from "@/lib/export/audited-csv";
import { eventCsvColumns, eventRowFor, everyEvent } from "./events-list";
import type { EventsFilter } from "./events-list-input";

/**
 * Streams every received notification matching `filter` as CSV, page by page, audited like every export
 * (`events.export`, with its filters, then its row count or why it stopped).
 */
export async function exportEventsCsv(filter: EventsFilter, call: Pick<ApiCall, "user" | "requestId" | "log">): Promise<Response> {
  const { db } = await consoleDb();
  const body = await auditedCsvExport(audited, {
    entry: {
      actor: { id: call.user.id, email: call.user.email, role: call.user.role },
      environment: filter.environment,
      action: "events.export",
      targetId: null,
      before: { filters: filter },
      requestId: call.requestId,
    },
    columns: eventCsvColumns,
    open: async () => {
      const rows = everyEvent(db, filter);
      return (async function* shown() {
        for await (const row of rows) yield eventRowFor(call.user.role, row);
      })();
    },
    log: call.log,
  });
  return csvResponse(body, "events");
}
