/**
 * Which time zone the console shows times in, decided the same way on the server and in the browser so the first HTML
 * and the hydrated page agree. The browser tells the server its IANA zone in a cookie (`console-tz`, written from
 * `Intl.DateTimeFormat().resolvedOptions().timeZone` by components/format/time-zone.tsx); the staff member's choice of
 * "local" or "UTC" is a second cookie (`console-times`). Until the browser has said, everything is UTC. Client-safe.
 */
import { defaultTimeZone, isTimeZone } from "./format";

export const zoneCookie = "console-tz";
export const modeCookie = "console-times";
export type TimeMode = "local" | "utc";

export interface DisplayZone {
  /** The zone times are shown in now. */
  zone: string;
  /** The browser's zone as last reported, or null before it said. */
  local: string | null;
  mode: TimeMode;
}

/** The zone to show from the two cookies' values; anything unknown or malformed counts as absent. */
export function displayZone(cookies: { zone?: string | null; mode?: string | null }): DisplayZone {
  const local = isTimeZone(cookies.zone) ? cookies.zone : null;
  const mode: TimeMode = cookies.mode === "utc" ? "utc" : "local";
  return { zone: mode === "utc" || !local ? defaultTimeZone : local, local, mode };
}
