import type { ReactNode } from "react";
import { CommandPaletteLoader } from "@/components/console/command-palette-loader";
import { ConsoleHeader, EnvironmentBanner } from "@/components/console/console-header";
import { MenuDrawer } from "@/components/console/menu-drawer";
import { ShellExtrasLoader } from "@/components/console/shell-extras-loader";
import { ConsoleProviders } from "@/components/console/providers";
import { TimeZoneProvider } from "@/components/format/time-zone";
import { Sidebar } from "@/components/console/sidebar";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { permissionsOf } from "@/lib/permissions";
import { sidebarViews } from "@/lib/views/sidebar";
import { readDisplayZone } from "@/lib/time-zone-server";

/**
 * The signed-in shell (docs/console-pages.md, "Layout"): from 1024 px the sidebar stands beside the page; below, it
 * opens from the header's Menu button. Each page still checks the session and its own permission: a layout check alone
 * is not enough.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const [environment, views, zone] = await Promise.all([
    getActiveEnvironment(),
    consoleDb().then(({ db }) => sidebarViews(db, user.id)),
    readDisplayZone(),
  ]);
  return (
    <ConsoleProviders session={{ userId: user.id, environment, permissions: permissionsOf(user.role), revealMinutes: env.REVEAL_MINUTES }}>
      <a
        href="#content"
        className="sr-only z-[70] rounded-md bg-accent px-3 py-2 text-sm font-medium text-accent-fg focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <ShellExtrasLoader />
      <EnvironmentBanner environment={environment} />
      <div className="flex min-h-[calc(100vh-1.75rem)]">
        <aside className="hidden w-48 shrink-0 border-r border-line bg-surface lg:block">
          <Sidebar role={user.role} environment={environment} views={views} />
        </aside>
        <div className="min-w-0 flex-1">
          <ConsoleHeader
            user={user}
            menu={
              <MenuDrawer>
                <Sidebar role={user.role} environment={environment} views={views} />
              </MenuDrawer>
            }
          />
          <main id="content" tabIndex={-1} className="px-3 py-4 focus:outline-none sm:px-6 sm:py-5">
            <TimeZoneProvider value={zone}>{children}</TimeZoneProvider>
          </main>
        </div>
      </div>
      <CommandPaletteLoader />
    </ConsoleProviders>
  );
}
