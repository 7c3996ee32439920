import { z } from "zod";
import { apiRoute } from "@/lib/api";
import { opaqueId } from "@/lib/contract/primitives";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { maxNamesPerLookup, namesOf } from "@/lib/search/names-lookup";

/**
 * GET /api/names?ids=cp_1,card_2 : the names the console's index knows for these ids (masked as every role sees
 * them), to show beside ids in lists and details (docs/search.md).
 */
export const GET = apiRoute({
  permission: "bank:read",
  rateLimit: "names",
  query: z.strictObject({
    ids: z
      .string()
      .transform((value) => [
        ...new Set(
          value
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(opaqueId).min(1, "ids: give at least one id").max(maxNamesPerLookup, `ids: at most ${maxNamesPerLookup} ids`)),
  }),
  async handle(call) {
    const { ids } = call.query as { ids: string[] };
    const { db } = await consoleDb();
    return { names: await namesOf(db, await getActiveEnvironment(), ids) };
  },
});
