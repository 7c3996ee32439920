import { signOutAction } from "@/app/(console)/actions";
import type { StaffUser } from "@/lib/auth/staff-users";
import type { Environment } from "@/lib/credentials/environments";
import { LiveIndicator } from "@/components/live/live-indicator";
import { EnvironmentSwitcher } from "./environment-switcher";
import { IdSearch } from "./id-search";
import { ThemeSwitch } from "./theme-switch";

/** The active environment (production in a warning colour) across the top of every console page. */
export function EnvironmentBanner({ environment }: { environment: Environment }) {
  const production = environment === "production";
  return (
    <div
      data-testid="environment-banner"
      data-environment={environment}
      className={`flex items-center justify-between gap-4 px-4 py-1 text-xs font-semibold ${production ? "bg-production text-production-foreground" : "bg-sandbox text-sandbox-foreground"}`}
    >
      <span>{production ? "PRODUCTION: changes here move real money" : "Sandbox: test data, simulations available"}</span>
      <EnvironmentSwitcher active={environment} />
    </div>
  );
}

/** The bar above every page: find by id, the live connection, theme, who is signed in with which role, sign-out. */
export function ConsoleHeader({ user }: { user: StaffUser }) {
  return (
    <header className="flex flex-wrap items-center justify-between gap-3 border-b border-line bg-surface px-4 py-2">
      <IdSearch />
      <div className="flex items-center gap-3 text-sm">
        <LiveIndicator />
        <ThemeSwitch />
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
