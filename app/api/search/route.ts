import { z } from "zod";
import { apiRoute, badInput } from "@/lib/api";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { parseSearchQuery } from "@/lib/search/query";
import { searchAsStaff } from "@/lib/search/search";

/**
 * GET /api/search?q= : every indexed object of the active environment the query names, grouped by kind, best first,
 * each with what matched (docs/search.md). Every role that reads bank objects; a role that may match masked fields
 * is audited per search (`search.masked_fields`).
 */
export const GET = apiRoute({
  permission: "bank:read",
  rateLimit: "search",
  query: z.strictObject({ q: z.string().optional() }),
  async handle(call) {
    const parsed = parseSearchQuery((call.query as { q?: string }).q);
    if (!parsed.ok) throw badInput(parsed.error);
    const { db } = await consoleDb();
    return searchAsStaff(db, {
      environment: await getActiveEnvironment(),
      actor: { id: call.user.id, email: call.user.email, role: call.user.role },
      requestId: call.requestId,
      query: parsed.query,
    });
  },
});
