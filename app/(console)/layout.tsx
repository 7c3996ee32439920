import type { ReactNode } from "react";
import { CommandPalette } from "@/components/console/command-palette";
import { ConsoleHeader, EnvironmentBanner } from "@/components/console/console-header";
import { ConsoleProviders } from "@/components/console/providers";
import { Sidebar } from "@/components/console/sidebar";
import { requireUser } from "@/lib/auth/current-user";
import { getActiveEnvironment } from "@/lib/credentials";
import { permissionsOf } from "@/lib/permissions";

/** The signed-in shell. Each page still checks the session and its own permission: a layout check alone is not enough. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const environment = await getActiveEnvironment();
  return (
    <ConsoleProviders session={{ userId: user.id, environment, permissions: permissionsOf(user.role) }}>
      <EnvironmentBanner environment={environment} />
      <div className="flex min-h-[calc(100vh-1.75rem)]">
        <aside className="w-52 shrink-0 border-r border-line bg-surface">
          <Sidebar role={user.role} environment={environment} />
        </aside>
        <div className="min-w-0 flex-1">
          <ConsoleHeader user={user} />
          <main className="px-6 py-5">{children}</main>
        </div>
      </div>
      <CommandPalette />
    </ConsoleProviders>
  );
}
