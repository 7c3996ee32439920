import { badInput } from "@/lib/api/errors";
import type { ApiCall, RouteDefinition } from "@/lib/api/route";
import { audited } from "@/lib/audit/trail";
import type { ListedResource } from "@/lib/contract/operations";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import { indexListPath } from "./index-filters";
import { readSort, sortParameter } from "@/lib/resources/sorting";
import { countFromIndex, listFromIndex, matchingIdsFromIndex } from "./index-list";
import { indexListRouteInput, parseIndexListQuery, type IndexListPage } from "./index-list-input";
import { guardMaskedFilters, maskedFilterAction } from "./masked-filters";

/** What the index-served list and count need; the route files wire the real ones. */
export interface IndexListDependencies {
  activeEnvironment(): Promise<Environment>;
  db(): Promise<ConsoleDb>;
}

type IndexListCall = ApiCall<{ resource: ListedResource }, Record<string, string>, unknown>;

/**
 * Reads an index-served list or count for a call: its query checked (400 naming the problem), then its filters (a
 * masked field the role sees masked is a 403, one it sees unmasked is rate-limited and the read audited as
 * `<resource>.masked_filter`, lib/search/masked-filters.ts), then `read` itself.
 */
async function readIndex<T>(
  dependencies: IndexListDependencies,
  call: IndexListCall,
  query: Record<string, string>,
  read: (db: ConsoleDb, environment: Environment, page: IndexListPage) => Promise<T>,
  rowsOf: (result: T) => number,
): Promise<T> {
  const { resource } = call.params;
  const parsed = parseIndexListQuery(resource, query);
  if (!parsed.ok) throw badInput(parsed.error);
  // A sort by a field tells its values' order, so it is a read of that field as a filter by it is.
  const { [sortParameter]: sort, ...filtersAsked } = query;
  const sortedBy = readSort(sort)?.column;
  const filters = await guardMaskedFilters(resource, call.user, sortedBy ? { [sortedBy]: sort, ...filtersAsked } : filtersAsked);
  const db = await dependencies.db();
  const environment = await dependencies.activeEnvironment();
  if (!filters) return read(db, environment, parsed.page);
  return audited(
    db,
    {
      actor: { id: call.user.id, email: call.user.email, role: call.user.role },
      environment,
      action: maskedFilterAction(resource),
      targetId: null,
      before: { filters, source: "index" },
      requestId: call.requestId,
    },
    () => read(db, environment, parsed.page),
    { after: (result) => ({ rows: rowsOf(result) }) },
  );
}

/**
 * `GET /api/index-list/{resource}?…` (`list`): a list page served from the console's index, for filters the bank
 * cannot express (amount range, several statuses, date presets, has error) with the bank's own filters beside them,
 * masked as every list, `page_next` pointing at the next page here; and `GET /api/index-list/{resource}/count?…`
 * (`count`): how many objects match those filters, paging ignored; and `GET /api/index-list/{resource}/ids?…` (`ids`):
 * the ids of the matching objects in the list's order, at most `maxMatchingIds` ("select all N matching",
 * docs/search.md).
 */
export function indexListRoutes(dependencies: IndexListDependencies): { list: RouteDefinition; count: RouteDefinition; ids: RouteDefinition } {
  const list: RouteDefinition<{ resource: ListedResource }, Record<string, string>> = {
    permission: "bank:read",
    ...indexListRouteInput,
    rateLimit: "indexList",
    async handle(call) {
      const page = await readIndex(
        dependencies,
        call,
        call.query,
        (db, environment, parsed) => listFromIndex(db, environment, call.params.resource, parsed, { role: call.user.role }),
        (result) => result.data.length,
      );
      return {
        data: page.data,
        ...(page.nextCursor && { page_next: indexListPath(call.params.resource, { ...call.query, page_cursor: page.nextCursor }) }),
        index: page.index,
      };
    },
  };
  /** A read of every match, paging ignored: how many (`count`) or which (`ids`). */
  function matchesRoute<T>(
    read: (db: ConsoleDb, environment: Environment, resource: ListedResource, page: IndexListPage) => Promise<T>,
    rowsOf: (result: T) => number,
  ): RouteDefinition<{ resource: ListedResource }, Record<string, string>> {
    return {
      permission: "bank:read",
      ...indexListRouteInput,
      rateLimit: "indexList",
      async handle(call) {
        const filters = Object.fromEntries(Object.entries(call.query).filter(([name]) => name !== "page_cursor"));
        return readIndex(dependencies, call, filters, (db, environment, parsed) => read(db, environment, call.params.resource, parsed), rowsOf);
      },
    };
  }
  const count = matchesRoute(
    (db, environment, resource, parsed) => countFromIndex(db, environment, resource, parsed.filter),
    (result) => result.count,
  );
  const ids = matchesRoute(matchingIdsFromIndex, (result) => result.ids.length);
  return { list: list as RouteDefinition, count: count as RouteDefinition, ids: ids as RouteDefinition };
}
