import { apiRoute, badInput } from "@/lib/api";
import type { ListedResource } from "@/lib/contract/operations";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { countFromIndex } from "@/lib/search/index-list";
import { indexListRouteInput, parseIndexListQuery } from "@/lib/search/index-list-input";

/**
 * GET /api/index-list/{resource}/count?… : how many objects match a list's filters (the bank's own and the index's),
 * from the console's index, with how fresh it is: the list header's exact count (docs/search.md). Paging is ignored.
 */
export const GET = apiRoute({
  permission: "bank:read",
  ...indexListRouteInput,
  async handle(call) {
    const { resource } = call.params as { resource: ListedResource };
    const filters = Object.entries(call.query as Record<string, string>).filter(([name]) => name !== "page_cursor");
    const parsed = parseIndexListQuery(resource, Object.fromEntries(filters));
    if (!parsed.ok) throw badInput(parsed.error);
    const { db } = await consoleDb();
    return countFromIndex(db, await getActiveEnvironment(), resource, parsed.page.filter);
  },
});
