"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import type { SidebarViews } from "@/lib/views/sidebar";

/**
 * A list's saved views under its sidebar entry (lib/views/): a bounded number, the one open marked as the current page,
 * and "more" to the page listing them all.
 */
export function SavedViewLinks({ route, views: { views, more } }: { route: string; views: SidebarViews }) {
  const pathname = usePathname();
  const openView = useSearchParams().get("view");
  return (
    <ul aria-label="Saved views" className="mt-0.5 ml-3 space-y-0.5 border-l border-line pl-1.5">
      {views.map((view) => {
        const current = pathname === route && openView === view.id;
        return (
          <li key={view.id}>
            <Link
              href={view.href}
              aria-current={current ? "page" : undefined}
              title={view.shared ? `${view.name} (shared with every staff member)` : view.name}
              className={`block truncate rounded px-2 py-0.5 text-xs ${current ? "bg-surface-2 font-medium text-fg" : "text-muted hover:bg-surface-2 hover:text-fg"}`}
            >
              {view.name}
              {view.shared ? <span className="sr-only"> (shared)</span> : null}
            </Link>
          </li>
        );
      })}
      {more ? (
        <li>
          <Link href={more.href} className="block rounded px-2 py-0.5 text-xs text-accent hover:bg-surface-2">
            {more.count} more…
          </Link>
        </li>
      ) : null}
    </ul>
  );
}
