import "server-only";
import { cookies } from "next/headers";
import { displayZone, modeCookie, zoneCookie, type DisplayZone } from "./time-zone";

/** The signed-in staff member's display zone, from the request's cookies (lib/time-zone.ts). */
export async function readDisplayZone(): Promise<DisplayZone> {
  const jar = await cookies();
  return displayZone({ zone: jar.get(zoneCookie)?.value, mode: jar.get(modeCookie)?.value });
}
