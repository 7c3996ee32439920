"use client";

import { useTransition } from "react";
import { switchEnvironment } from "@/lib/actions/console";
import { environments, type Environment } from "@/lib/credentials/environments";

/** A select that switches the active environment at once (server action, then the page re-renders). */
export function EnvironmentSwitcher({ active }: { active: Environment }) {
  const [pending, startTransition] = useTransition();
  return (
    <label className="flex items-center gap-2 text-xs font-medium">
      <span className="sr-only">Environment</span>
      <select
        aria-label="Environment"
        className="rounded border border-white/40 bg-black/10 px-1.5 py-0.5 text-xs"
        value={active}
        disabled={pending}
        onChange={(event) => {
          const form = new FormData();
          form.set("environment", event.target.value);
          startTransition(() => switchEnvironment(form));
        }}
      >
        {environments.map((environment) => (
          <option key={environment} value={environment} className="text-fg">
            {environment}
          </option>
        ))}
      </select>
    </label>
  );
}
