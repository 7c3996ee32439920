import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { cache, Suspense } from "react";
import { isWellFormedId } from "@/lib/contract/names";
import { inSentence } from "@/lib/format";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { readThroughProxy } from "@/lib/api/server-read";
import { requireUser, type StaffUser } from "@/lib/auth/current-user";
import { bankKeys } from "@/lib/bank/query-keys";
import { getActiveEnvironment } from "@/lib/credentials";
import type { Environment } from "@/lib/credentials/environments";
import { detailDefinition, resources, type ResourceName } from "@/lib/resources";
import { detailTitle } from "@/lib/resources/titles";
import { deliveriesQuery } from "@/lib/webhooks/deliveries-query";
import { detailContexts } from "./detail-context";
import { ResourceDetail } from "./resource-detail";
import { CasePanel } from "@/components/reviews/case-panel";
import { Timeline } from "./timeline";

/** One read of a detail object per request, shared by the page and its browser title. */
const readDetail = cache(async (resource: ResourceName, id: string) => {
  const user = await requireUser("bank:read");
  return readThroughProxy(user, `get_${resource}`, { params: { id } });
});

/** A detail page's browser title names its object: `ACH transfer ach_7f52 · $58,169.77` (lib/resources/titles.ts). */
export function detailMetadata(resource: ResourceName) {
  return async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
    const definition = resources[resource];
    const id = decodeURIComponent((await params).id);
    if (!isWellFormedId(resource, id)) return { title: `Not a ${inSentence(definition.singular)} id` };
    const read = await readDetail(resource, id);
    return { title: detailTitle(definition, id, read.ok ? read.data : undefined) };
  };
}

/** A detail page, deep-linkable by id: a malformed id is told as such, an unknown one is a 404 page. */
export async function ResourceDetailPage({ resource, params }: { resource: ResourceName; params: Promise<{ id: string }> }) {
  const user = await requireUser("bank:read");
  const environment = await getActiveEnvironment();
  const definition = resources[resource];
  const id = decodeURIComponent((await params).id);
  if (!isWellFormedId(resource, id)) {
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
  return (
    <>
      <DetailBody user={user} environment={environment} resource={resource} id={id} />
      {resource === "person_application" || resource === "business_application" ? <CasePanel user={user} environment={environment} id={id} /> : null}
      {/* Last on the page, so arriving later in the same response moves nothing above it (no layout shift). */}
      <Suspense fallback={null}>
        <TimelineAfterTheObject user={user} environment={environment} resource={resource} id={id} />
      </Suspense>
    </>
  );
}

/**
 * The timeline, read once the bank has answered for the object and streamed after it: on the embedded database its
 * four index reads would otherwise run ahead of the bank's read and hold back the page's first byte (20.4 against
 * 19.0 ms by curl, docs/benchmarks.md), while the object is what the page is opened for.
 */
async function TimelineAfterTheObject(props: { user: StaffUser; environment: Environment; resource: ResourceName; id: string }) {
  await readDetail(props.resource, props.id);
  return <Timeline {...props} />;
}

/** The object as the bank answers it now (an unknown id is the 404 page), with what its page shows beside it. */
async function DetailBody({ user, environment, resource, id }: { user: StaffUser; environment: Environment; resource: ResourceName; id: string }) {
  const [read, deliveries] = await Promise.all([
    readDetail(resource, id),
    // A webhook's first page of delivery attempts is in the first HTML: read by the browser after the page, its rows
    // pushed the History below them down.
    resource === "webhook" ? readThroughProxy(user, "list_webhook_deliveries", { params: { id }, query: deliveriesQuery("all") }) : undefined,
  ]);
  if (!read.ok && read.status === 404) notFound();
  const queryClient = new QueryClient();
  if (read.ok) queryClient.setQueryData(bankKeys.detail(environment, resource, id), read.data);
  if (deliveries?.ok) queryClient.setQueryData(bankKeys.deliveries(environment, id, deliveriesQuery("all")), deliveries.data);
  const context = (await detailContexts[resource]?.(user, environment, id)) ?? {};
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ResourceDetail
        definition={detailDefinition(resources[resource])}
        id={id}
        context={context}
        serverError={read.ok ? undefined : { status: read.status, ...read.error }}
      />
    </HydrationBoundary>
  );
}
