"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";

export interface SidebarView {
  id: string;
  name: string;
  shared: boolean;
  href: string;
}

/** A list's saved views under its sidebar entry (lib/views/); the one open is marked as the current page. */
export function SavedViewLinks({ route, views }: { route: string; views: SidebarView[] }) {
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
    </ul>
  );
}
