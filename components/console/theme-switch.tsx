"use client";

import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";

const choices = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
] as const;

const noSubscription = () => () => {};

/** Light, dark or the system's choice (the default); next-themes applies it before paint, so no flash on load. */
export function ThemeSwitch() {
  const { theme, setTheme } = useTheme();
  // The saved theme is known only in the browser: the server (and hydration) render "system".
  const mounted = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    <label className="flex items-center gap-1 text-xs text-muted">
      <span className="max-sm:sr-only">Theme</span>
      <select
        aria-label="Theme"
        data-testid="theme-switch"
        className="rounded border border-line bg-surface px-1.5 py-0.5 text-xs text-fg"
        value={mounted ? (theme ?? "system") : "system"}
        onChange={(event) => setTheme(event.target.value)}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
