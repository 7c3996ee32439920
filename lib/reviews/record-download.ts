import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { z } from "zod";
import { notFound } from "@/lib/api/errors";
import type { ApiCall, RouteDefinition } from "@/lib/api/route";
import type { AuditEntry } from "@/lib/audit/trail";
import type { Environment } from "@/lib/credentials/environments";
import type * as schema from "@/lib/db/console-schema";
import { applicationIdPattern } from "./codes";
import { buildCaseRecord, caseRecordHtml } from "./record";
import { indexedApplication } from "./store";

export interface RecordDownloadDependencies {
  db: NodePgDatabase<typeof schema>;
  environment: Environment;
  audited<T>(entry: AuditEntry, perform: () => Promise<T>, options?: { after?: (result: T) => unknown }): Promise<T>;
  retentionYears: number;
}

/** The case record download: 404 for an application the index does not hold, else the audited file. */
export async function caseRecordResponse(
  call: ApiCall<{ id: string }, { format: "html" | "json" }, unknown>,
  dependencies: RecordDownloadDependencies,
): Promise<Response> {
  const { db, environment } = dependencies;
  const { id } = call.params;
  const { format } = call.query;
  if (!(await indexedApplication(db, environment, id))) throw notFound(`No application ${id} in the console's index of the ${environment} bank.`);
  const entry = {
    actor: { id: call.user.id, email: call.user.email, role: call.user.role },
    environment,
    action: "review.record.download",
    targetId: id,
    requestId: call.requestId,
    before: null,
  };
  const built = await dependencies.audited(
    entry,
    () => buildCaseRecord(db, environment, id, { ...call.user, retentionYears: dependencies.retentionYears }),
    { after: () => ({ format }) },
  );
  const body = format === "json" ? `${JSON.stringify(built.record, null, 2)}\n` : caseRecordHtml(built);
  return new Response(body, {
    headers: {
      "content-type": format === "json" ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
      "content-disposition": `attachment; filename="case-record-${id}.${format}"`,
      "cache-control": "no-store",
    },
  });
}

/** The route: `review:decide`, the id and `format` validated (400 naming the field). */
export function caseRecordRoute(
  dependencies: () => Promise<RecordDownloadDependencies>,
): RouteDefinition<{ id: string }, { format: "html" | "json" }, unknown> {
  return {
    permission: "review:decide",
    params: z.strictObject({ id: z.string().regex(applicationIdPattern, "expected a person or business application id") }),
    query: z.strictObject({ format: z.enum(["html", "json"], { error: "expected html or json" }).default("html") }),
    handle: async (call) => caseRecordResponse(call, await dependencies()),
  };
}
