import type { Environment } from "@/lib/credentials/environments";
import { permissionsOf, type Role } from "@/lib/permissions";
import { isShown, navigationGroups } from "./navigation";
import { SidebarLink } from "./sidebar-link";
import { SavedViewLinks } from "@/components/views/saved-view-links";
import type { SidebarViews } from "@/lib/views/sidebar";

/** Every section the role may open, grouped as operations staff think of them. */
export function Sidebar({ role, environment, views = {} }: { role: Role; environment: Environment; views?: Record<string, SidebarViews> }) {
  const permissions = permissionsOf(role);
  const groups = navigationGroups
    .map((group) => ({ ...group, items: group.items.filter((item) => isShown(item, permissions, environment)) }))
    .filter((group) => group.items.length > 0);
  return (
    <nav aria-label="Sections" className="flex flex-col gap-4 p-3">
      <span className="px-2 text-sm font-semibold">Bank console</span>
      {groups.map((group) => (
        <div key={group.title ?? "top"}>
          {group.title ? <h2 className="px-2 pb-1 text-[11px] font-semibold tracking-wider text-muted uppercase">{group.title}</h2> : null}
          <ul className="space-y-0.5">
            {group.items.map((item) => (
              <li key={item.href}>
                <SidebarLink href={item.href} label={item.label} />
                {views[item.href] ? <SavedViewLinks route={item.href} views={views[item.href]!} /> : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
