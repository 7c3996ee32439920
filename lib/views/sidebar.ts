import "server-only";
import type { ConsoleDb } from "@/lib/db/console-db";
import { resourceRoutes } from "@/lib/resources/routes";
import { viewHref } from "./actions";
import { sidebarViewsOf } from "./store";

/** How many views the sidebar shows under one list; the rest are one "more" link away (`/views?list=`). */
export const sidebarViewsPerList = 8;

export interface SidebarViews {
  views: Array<{ id: string; name: string; shared: boolean; href: string }>;
  /** The views of this list not shown, and the page listing them all; null when all are shown. */
  more: { count: number; href: string } | null;
}

/** The saved views a staff member sees, by their list's route, as the sidebar lists them: at most `sidebarViewsPerList` each. */
export async function sidebarViews(db: ConsoleDb, userId: string): Promise<Record<string, SidebarViews>> {
  const views = await sidebarViewsOf(db, userId, sidebarViewsPerList);
  const byRoute: Record<string, SidebarViews> = {};
  for (const view of views) {
    const entry = (byRoute[resourceRoutes[view.resource].route] ??= {
      views: [],
      more: view.total > sidebarViewsPerList ? { count: view.total - sidebarViewsPerList, href: `/views?list=${view.resource}` } : null,
    });
    entry.views.push({ id: view.id, name: view.name, shared: view.shared, href: viewHref(view) });
  }
  return byRoute;
}
