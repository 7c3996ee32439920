import Link from "next/link";
import { signOutAction } from "@/app/(console)/actions";
import type { StaffUser } from "@/lib/auth/staff-users";
import type { Environment } from "@/lib/credentials/environments";
import { can } from "@/lib/permissions";
import { EnvironmentSwitcher } from "./environment-switcher";
import { navigation } from "./navigation";

/** The header on every console page: the active environment (production in a warning colour), sections, user, sign-out. */
export function ConsoleHeader({ user, environment }: { user: StaffUser; environment: Environment }) {
  const production = environment === "production";
  return (
    <header>
      <div
        data-testid="environment-banner"
        data-environment={environment}
        className={`flex items-center justify-between gap-4 px-4 py-1.5 text-sm font-semibold ${production ? "bg-production text-production-foreground" : "bg-sandbox text-sandbox-foreground"}`}
      >
        <span>{production ? "PRODUCTION: changes here move real money" : "Sandbox: test data, simulations available"}</span>
        <EnvironmentSwitcher active={environment} />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-4 border-b border-slate-200 bg-white px-4 py-2">
        <nav aria-label="Sections" className="flex flex-wrap items-center gap-4 text-sm">
          <span className="font-semibold">Bank console</span>
          {navigation
            .filter((item) => can(user.role, item.permission))
            .map((item) => (
              <Link key={item.href} href={item.href} className="text-slate-700 hover:text-slate-950 hover:underline">
                {item.label}
              </Link>
            ))}
        </nav>
        <div className="flex items-center gap-3 text-sm">
          <span data-testid="current-user">
            {user.name} <span className="text-slate-500">({user.role})</span>
          </span>
          <form action={signOutAction}>
            <button type="submit" className="rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-100">
              Sign out
            </button>
          </form>
        </div>
      </div>
    </header>
  );
}
