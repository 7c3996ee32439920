import "server-only";
import { consoleDb } from "@/lib/db/console";
import { resourceRoutes } from "@/lib/resources/routes";
import { viewHref } from "./actions";
import { listViews } from "./store";

/** The saved views a staff member sees, by their list's route, as the sidebar lists them. */
export async function sidebarViews(userId: string): Promise<Record<string, Array<{ id: string; name: string; shared: boolean; href: string }>>> {
  const views = await listViews((await consoleDb()).db, userId);
  const byRoute: Record<string, Array<{ id: string; name: string; shared: boolean; href: string }>> = {};
  for (const view of views)
    (byRoute[resourceRoutes[view.resource].route] ??= []).push({ id: view.id, name: view.name, shared: view.shared, href: viewHref(view) });
  return byRoute;
}
