"use client";

import { useRouter } from "next/navigation";
import { createContext, useContext, useEffect, type ReactNode } from "react";
import { defaultTimeZone } from "@/lib/format";
import { modeCookie, zoneCookie, type DisplayZone, type TimeMode } from "@/lib/time-zone";

const ZoneContext = createContext<DisplayZone>({ zone: defaultTimeZone, local: null, mode: "local" });

/** The zone every client-rendered time uses: the one the server rendered with, so hydration matches. */
export function useDisplayZone(): DisplayZone {
  return useContext(ZoneContext);
}

const year = 365 * 24 * 3600;
/** "America/New_York" → "New York": the place a zone is named after, short enough for the header. */
const place = (zone: string) => (zone.split("/").at(-1) ?? zone).replaceAll("_", " ");
function setCookie(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${year}; samesite=lax`;
}

/**
 * Provides the server's display zone to client components, and tells the server the browser's zone: when the cookie
 * is missing or stale (travel, a changed system setting), it is written and the page re-rendered once in local time.
 */
export function TimeZoneProvider({ value, children }: { value: DisplayZone; children: ReactNode }) {
  const router = useRouter();
  useEffect(() => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!browser || browser === value.local) return;
    setCookie(zoneCookie, browser);
    // Only when what is shown changes: a browser in UTC, or a staff member who chose UTC, sees the same page.
    if (value.mode === "local" && browser !== value.zone) router.refresh();
  }, [value.local, value.mode, value.zone, router]);
  return <ZoneContext.Provider value={value}>{children}</ZoneContext.Provider>;
}

/** The staff member's choice: times in their own zone or in UTC (a cookie, so the server renders the same). */
export function TimeZoneSelect({ value }: { value: DisplayZone }) {
  const router = useRouter();
  const { local, mode } = value;
  return (
    <label className="flex items-center gap-1 text-xs text-muted">
      <span>Times</span>
      <select
        aria-label="Show times in"
        data-testid="time-zone-switch"
        className="max-w-[11rem] rounded border border-line bg-surface px-1.5 py-0.5 text-xs text-fg"
        value={mode}
        onChange={(event) => {
          setCookie(modeCookie, event.target.value as TimeMode);
          router.refresh();
        }}
      >
        <option value="local" title={local ?? undefined}>
          {local ? `Local (${place(local)})` : "Local"}
        </option>
        <option value="utc">UTC</option>
      </select>
    </label>
  );
}
