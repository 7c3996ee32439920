import { z } from "zod";
import { apiRoute, badInput } from "@/lib/api";
import { enforceRateLimit } from "@/lib/api/rate-limit";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { parseSearchQuery } from "@/lib/search/query";
import { searchForStaff } from "@/lib/search/search-preview";

/**
 * GET /api/search?q= : every indexed object of the active environment the query names, grouped by kind, best first,
 * each with what matched (docs/search.md). Every role that reads bank objects; a role that may match masked fields
 * is audited per search (`search.masked_fields`). `&preview=1` (the search box while typing) matches public fields
 * only and is never recorded (lib/search/search-preview.ts); previews have their own allowance, so the box's requests
 while a person types do not spend the searches' (lib/api/rate-limit.ts).
 */
export const GET = apiRoute({
  permission: "bank:read",
  query: z.strictObject({
    q: z.string().optional(),
    preview: z.literal("1", { error: "expected 1 (a preview while typing, public fields only) or nothing" }).optional(),
  }),
  async handle(call) {
    const { q, preview } = call.query as { q?: string; preview?: "1" };
    await enforceRateLimit(preview === "1" ? "searchPreview" : "search", call.user.id);
    const parsed = parseSearchQuery(q);
    if (!parsed.ok) throw badInput(parsed.error);
    const { db } = await consoleDb();
    return searchForStaff(db, {
      environment: await getActiveEnvironment(),
      actor: { id: call.user.id, email: call.user.email, role: call.user.role },
      requestId: call.requestId,
      query: parsed.query,
      preview: preview === "1",
    });
  },
});
