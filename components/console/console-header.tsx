import { signOutAction } from "@/lib/actions/console";
import type { ReactNode } from "react";
import type { StaffUser } from "@/lib/auth/staff-user";
import type { Environment } from "@/lib/credentials/environments";
import { TimeZoneSwitch } from "@/components/format/time-zone-switch";
import { HeaderLiveIndicator } from "./header-live-indicator";
import { EnvironmentSwitcher } from "./environment-switcher";
import { HeaderSearch } from "./header-search";
import { ThemeSwitch } from "./theme-switch";

/** The active environment (production in a warning colour) across the top of every console page. */
export function EnvironmentBanner({ environment }: { environment: Environment }) {
  const production = environment === "production";
  return (
    <div
      data-testid="environment-banner"
      data-environment={environment}
      className={`flex items-center justify-between gap-x-4 gap-y-1 px-3 py-1 text-xs font-semibold sm:px-4 ${production ? "bg-production text-production-foreground" : "bg-sandbox text-sandbox-foreground"}`}
    >
      <span>{production ? "PRODUCTION: changes here move real money" : "Sandbox: test data, simulations available"}</span>
      <EnvironmentSwitcher active={environment} />
    </div>
  );
}

/**
 * The bar above every page: the menu (below 1024 px, where the sidebar is hidden), the search, the live connection,
 * theme, who is signed in with which role, sign-out. On a phone the search keeps the first row; the rest wraps below.
 */
export function ConsoleHeader({ user, menu }: { user: StaffUser; menu?: ReactNode }) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 border-b border-line bg-surface px-3 py-2 sm:px-4">
      <div className="flex min-w-0 flex-1 items-center gap-2 sm:flex-none">
        {menu}
        <HeaderSearch />
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs sm:text-sm">
        <HeaderLiveIndicator />
        <ThemeSwitch />
        <TimeZoneSwitch />
        <span data-testid="current-user">
          {user.name} <span className="text-muted">({user.role})</span>
        </span>
        <form action={signOutAction}>
          <button type="submit" className="rounded-md border border-line px-2 py-1 text-xs hover:bg-surface-2">
            Sign out
          </button>
        </form>
      </div>
    </header>
  );
}
