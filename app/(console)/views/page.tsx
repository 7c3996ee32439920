import { PageHeader } from "@/components/ui/page-header";
import { SavedViewTable } from "@/components/views/saved-view-table";
import { requireUser } from "@/lib/auth/current-user";
import { consoleDb } from "@/lib/db/console";
import { isResourceName, resourceRoutes } from "@/lib/resources/routes";
import { listViews } from "@/lib/views/store";

export const metadata = { title: "Saved views · Bank console" };

/** `/views?list=<resource>`: all the saved views of one list (or of every list), where the sidebar's "more" leads. */
export default async function SavedViewsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser("bank:read");
  const { list } = await searchParams;
  const resource = typeof list === "string" && isResourceName(list) ? list : undefined;
  const views = await listViews((await consoleDb()).db, user.id, resource);
  return (
    <>
      <PageHeader
        title={resource ? `Saved views of ${resourceRoutes[resource].title}` : "Saved views"}
        description="Your own views and those shared with every staff member."
      />
      <SavedViewTable views={views} />
    </>
  );
}
