import { EventsFilters } from "@/components/events/events-filters";
import { EventsTable } from "@/components/events/events-table";
import { KeysetPager } from "@/components/ui/keyset-pager";
import { Notice } from "@/components/ui/notice";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { eventRowFor, listEvents } from "@/lib/index/events-list";
import { eventsPageSizes, parseEventsQuery } from "@/lib/index/events-list-input";

export const metadata = { title: "Events" };

export default async function EventsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser("bank:read");
  const activeEnvironment = await getActiveEnvironment();
  const query = parseEventsQuery(await searchParams, activeEnvironment);
  const { db } = await consoleDb();
  const page = query.ok ? query.page : undefined;
  // One row more than shown says whether there is a next page.
  const read = page ? await listEvents(db, page.filter, { limit: page.pageSize + 1, after: page.after }) : [];
  const rows = page ? read.slice(0, page.pageSize).map((row) => eventRowFor(user.role, row)) : [];
  const environment = page?.filter.environment ?? activeEnvironment;
  const filtered = page ? Object.entries(page.filter).some(([name, value]) => name !== "environment" && value !== undefined) : false;
  return (
    <>
      <PageHeader
        title="Events"
        description="Notifications the bank sent the console, newest first: when each came, how often it was delivered, and what fetching its object found or why it was given up."
      />
      <EventsFilters filter={page?.filter ?? { environment }} pageSize={page?.pageSize ?? eventsPageSizes.default} />
      {environment === activeEnvironment ? null : (
        <div className="mb-4">
          <Notice tone="info">
            These are {environment} events while {activeEnvironment} is active: objects open in the active environment only, so they are not linked.
          </Notice>
        </div>
      )}
      {page ? (
        <>
          <EventsTable
            rows={rows}
            linkObjects={environment === activeEnvironment}
            empty={
              filtered ? "No events match these filters." : page.after ? "No more events after this page." : `No ${environment} events received yet.`
            }
          />
          <KeysetPager
            path="/events"
            state={page.state}
            rows={rows.length}
            nextCursor={read.length > page.pageSize ? String(rows.at(-1)!.id) : null}
          />
        </>
      ) : (
        <Notice tone="error" testId="events-filter-error">
          {query.ok ? null : query.error}
        </Notice>
      )}
    </>
  );
}
