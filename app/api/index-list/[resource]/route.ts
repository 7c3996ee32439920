import { apiRoute, badInput } from "@/lib/api";
import type { ListedResource } from "@/lib/contract/operations";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { indexListPath } from "@/lib/search/index-filters";
import { listFromIndex } from "@/lib/search/index-list";
import { indexListRouteInput, parseIndexListQuery } from "@/lib/search/index-list-input";

/**
 * GET /api/index-list/{resource}?… : a list page served from the console's index, for filters the bank cannot
 * express (amount range, several statuses, date presets, has error) with the bank's own filters beside them
 * (docs/search.md). Masked as every list; `page_next` points at the next page here.
 */
export const GET = apiRoute({
  permission: "bank:read",
  ...indexListRouteInput,
  async handle(call) {
    const { resource } = call.params as { resource: ListedResource };
    const query = call.query as Record<string, string>;
    const parsed = parseIndexListQuery(resource, query);
    if (!parsed.ok) throw badInput(parsed.error);
    const { db } = await consoleDb();
    const page = await listFromIndex(db, await getActiveEnvironment(), resource, parsed.page);
    return {
      data: page.data,
      ...(page.nextCursor && { page_next: indexListPath(resource, { ...query, page_cursor: page.nextCursor }) }),
      index: page.index,
    };
  },
});
