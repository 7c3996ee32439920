import { dehydrate, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { cookies } from "next/headers";
import { PageHeader } from "@/components/ui/page-header";
import { readThroughProxy } from "@/lib/api/server-read";
import { requireUser } from "@/lib/auth/current-user";
import { bankKeys } from "@/lib/bank/query-keys";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { can } from "@/lib/permissions";
import { resources, type ResourceName } from "@/lib/resources";
import { filterControls } from "@/lib/resources/filters";
import { listPayload } from "@/lib/resources/list-payload";
import { packPage } from "@/lib/resources/packed-rows";
import { idsNamedIn } from "@/lib/resources/names-beside";
import { defaultPageSize, listStateFrom, pageSizeCookie, rememberedPageSize, withDefaultPageSize } from "@/lib/resources/list-state";
import { listTitle } from "@/lib/resources/titles";
import { usesIndexFilters } from "@/lib/search/index-filters";
import { mayFilterBy } from "@/lib/search/masked-filters";
import { namesOf } from "@/lib/search/names-lookup";
import { findView } from "@/lib/views/store";
import { ResourceList } from "./resource-list";
import { ResourceListHydration } from "./resource-list-hydration";

// A module of its own, apart from the detail page (resource-pages.tsx): a page's browser JavaScript is every client
// component its server modules import, so a list page importing the detail page's module would ship the detail's
// panels (userdata editor loader, card tokens, webhook deliveries, case workspace) to every list.

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A list page's browser title, from its definition (the root layout appends " · Bank console"). */
export function listMetadata(resource: ResourceName): Metadata {
  return { title: listTitle(resources[resource]) };
}

/**
 * A list page: the first page read on the server through the same route as `/api/bank/...` and hydrated into the
 * client list, so rows are in the first HTML. The URL's query is the bank's own (plus the cursors walked through and
 * the saved view it was opened from).
 */
export async function ResourceListPage({
  resource,
  searchParams,
  description,
  actions,
  after,
}: {
  resource: ResourceName;
  searchParams: SearchParams;
  description?: string;
  /** What this list offers above its filters (a create form): its page's own client component, in that route's JavaScript only. */
  actions?: ReactNode;
  /**
   * What the page adds below the list. Whatever streams in after the first paint goes here: arriving above the rows it
   * would move them (components/webhooks/console-subscriptions.tsx).
   */
  after?: ReactNode;
}) {
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const definition = resources[resource];
  // The URL's page size wins; without one, the size this person last chose on this list, else 50.
  const pageSize = rememberedPageSize((await cookies()).get(pageSizeCookie(resource))?.value) ?? defaultPageSize;
  const state = withDefaultPageSize(listStateFrom(await searchParams), pageSize);
  // A list using a filter only the console's index can serve is read by the client from the index, not the bank.
  const read = usesIndexFilters(state.query) ? null : await readThroughProxy(user, `list_${resource}`, { query: state.query });
  const queryClient = new QueryClient();
  // The rows go to the browser twice, as HTML and as the hydration payload: the payload carries only the columns' fields,
  // each field's name once (lib/resources/packed-rows.ts).
  const { db } = await consoleDb();
  // The names beside ids come with the rows: a name arriving after the first paint widened its column and moved the
  // rows sideways. One map as a prop ("" for none), lighter in the hydration payload than a query per id.
  let names: Record<string, string> = {};
  if (read?.ok) {
    const page = read.data as { data?: unknown };
    queryClient.setQueryData(bankKeys.list(environment, resource, state.query), listPayload(definition, page));
    const ids = idsNamedIn(definition.columns, Array.isArray(page.data) ? page.data : []);
    const found = ids.length > 0 ? await namesOf(db, environment, ids) : {};
    names = Object.fromEntries(ids.map((id) => [id, found[id] ?? ""]));
  }
  const view = state.view ? await findView(db, user.id, state.view) : undefined;
  const openedView =
    view === undefined
      ? undefined
      : view && view.resource === resource
        ? {
            id: view.id,
            name: view.name,
            shared: view.shared,
            ownerEmail: view.ownerEmail,
            columns: view.columns,
            layout: view.layout,
            mayRemove: view.ownerId === user.id || (view.shared && can(user.role, "staff:manage")),
          }
        : null;
  const dehydrated = dehydrate(queryClient);
  const hydration = {
    ...dehydrated,
    queries: dehydrated.queries.map((query) => ({ ...query, state: { ...query.state, data: packPage(query.state.data) } })),
  };
  return (
    <>
      <PageHeader title={definition.title} description={description} />
      <ResourceListHydration state={hydration}>
        <ResourceList
          resource={resource}
          columns={definition.columns}
          // A filter on a field the role sees masked would be refused (lib/search/masked-filters.ts): not offered.
          filters={filterControls(resource).filter((control) => mayFilterBy(resource, user.role, control.name))}
          defaultPageSize={pageSize}
          serverError={!read || read.ok ? undefined : { status: read.status, ...read.error }}
          openedView={openedView}
          names={names}
          actions={actions}
        />
      </ResourceListHydration>
      {after}
    </>
  );
}
