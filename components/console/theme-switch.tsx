"use client";

import { useTheme } from "next-themes";
import { useEffect, useState } from "react";

const choices = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
] as const;

/** Light, dark or the system's choice (the default); next-themes applies it before paint, so no flash on load. */
export function ThemeSwitch() {
  const { theme, setTheme } = useTheme();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <label className="flex items-center gap-1 text-xs text-muted">
      <span>Theme</span>
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
