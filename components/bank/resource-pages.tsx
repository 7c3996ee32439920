import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { inSentence } from "@/lib/format";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { readThroughProxy } from "@/lib/api/server-read";
import { requireUser } from "@/lib/auth/current-user";
import { bankKeys } from "@/lib/bank/query-keys";
import { getActiveEnvironment } from "@/lib/credentials";
import { resources, type ResourceName } from "@/lib/resources";
import { filterControls } from "@/lib/resources/filters";
import { listStateFrom } from "@/lib/resources/list-state";
import { detailContexts } from "./detail-context";
import { ResourceDetail } from "./resource-detail";
import { ResourceList } from "./resource-list";
import { Timeline } from "./timeline";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * A list page: the first page read on the server through the same route as `/api/bank/...` and hydrated into the
 * client list, so rows are in the first HTML. The URL's query is the bank's own (plus the cursors walked through).
 */
export async function ResourceListPage({ resource, searchParams, description }: { resource: ResourceName; searchParams: SearchParams; description?: string }) {
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const definition = resources[resource];
  const state = listStateFrom(await searchParams);
  const read = await readThroughProxy(user, definition.apiPath, state.query);
  const queryClient = new QueryClient();
  if (read.ok) queryClient.setQueryData(bankKeys.list(environment, resource, state.query), read.data);
  return (
    <>
      <PageHeader title={definition.title} description={description} />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ResourceList resource={resource} filters={filterControls(resource)} serverError={read.ok ? undefined : { status: read.status, ...read.error }} />
      </HydrationBoundary>
    </>
  );
}

/** A detail page, deep-linkable by id: a malformed id is told as such, an unknown one is a 404 page. */
export async function ResourceDetailPage({ resource, params }: { resource: ResourceName; params: Promise<{ id: string }> }) {
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const definition = resources[resource];
  const id = decodeURIComponent((await params).id);
  if (!new RegExp(`^${definition.idPrefix}[A-Za-z0-9_-]{1,64}$`).test(id)) {
    return (
      <>
        <PageHeader title={`Not a ${inSentence(definition.singular)} id`} />
        <p role="alert" data-testid="malformed-id" className="rounded-md border border-line bg-surface p-4 text-sm">
          <span className="font-mono">{id}</span> is not a valid {inSentence(definition.singular)} id: {definition.singular} ids start with{" "}
          <span className="font-mono">{definition.idPrefix}</span> followed by up to 64 letters, digits, <span className="font-mono">_</span> or{" "}
          <span className="font-mono">-</span>.
        </p>
      </>
    );
  }
  const read = await readThroughProxy(user, `${definition.apiPath}/${encodeURIComponent(id)}`);
  if (!read.ok && read.status === 404) notFound();
  const queryClient = new QueryClient();
  if (read.ok) queryClient.setQueryData(bankKeys.detail(environment, resource, id), read.data);
  const context = (await detailContexts[resource]?.(user, environment, id)) ?? {};
  return (
    <>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ResourceDetail resource={resource} id={id} context={context} serverError={read.ok ? undefined : { status: read.status, ...read.error }} />
      </HydrationBoundary>
      <Timeline user={user} environment={environment} resource={resource} id={id} />
    </>
  );
}
