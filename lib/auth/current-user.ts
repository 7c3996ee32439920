import "server-only";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { consoleDb } from "@/lib/db/console";
import { can, type Permission } from "@/lib/permissions";
import { env } from "@/lib/env/console";
import { accessCache } from "./console-access";
import { requestPathHeader } from "./request-path";
import { readSessionToken } from "./session-token";
import { sessionWithinMaxAge } from "./session-age";
import { findSessionUser, type StaffUser } from "./staff-users";

export type { StaffUser } from "./staff-users";

/**
 * The signed-in staff user, as the database has it now: a locked or removed user gets null at once (and a session
 * from before a lock stays void after unlocking), and a role change applies on the next request. Read through the
 * access cache, which every change to staff users invalidates (lib/auth/access-cache.ts). Null when not signed in.
 */
export async function getCurrentUser(): Promise<StaffUser | null> {
  const session = await readSessionToken();
  if (!session || !sessionWithinMaxAge(session.signedInAtMs, Date.now(), env.SESSION_MAX_AGE_HOURS)) return null;
  const { sub: id, signedInAtMs } = session;
  return accessCache.get(`session-user:${id}:${signedInAtMs}`, async () => findSessionUser((await consoleDb()).db, id, new Date(signedInAtMs)));
}

/**
 * For pages and server actions: the signed-in user holding `permission`. Not signed in: redirects to the sign-in
 * page, which returns to the page asked for (proxy.ts passes its path). Without the permission: a 403 page.
 */
export async function requireUser(permission?: Permission): Promise<StaffUser> {
  const user = await getCurrentUser();
  if (!user) redirect(`/sign-in?from=${encodeURIComponent((await headers()).get(requestPathHeader) ?? "/")}`);
  if (permission && !can(user.role, permission)) forbidden();
  return user;
}
