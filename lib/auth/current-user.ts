import "server-only";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { consoleDb } from "@/lib/db/console";
import { can, type Permission } from "@/lib/permissions";
import { auth } from "./config";
import { env } from "@/lib/env/console";
import { requestPathHeader } from "./request-path";
import { safeReturnPath } from "./safe-redirect";
import { sessionWithinMaxAge } from "./session-age";
import { findSessionUser, type StaffUser } from "./staff-users";

export type { StaffUser } from "./staff-users";

/**
 * The signed-in staff user, re-read from the database on every call: a locked or removed user gets null at once (and
 * a session from before a lock stays void after unlocking), and a role change applies on the next request. Null when
 * not signed in.
 */
export async function getCurrentUser(): Promise<StaffUser | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id || !session.signedInAtMs || !sessionWithinMaxAge(session.signedInAtMs, Date.now(), env.SESSION_MAX_AGE_HOURS)) return null;
  return findSessionUser((await consoleDb()).db, id, new Date(session.signedInAtMs));
}

/**
 * For pages and server actions: the signed-in user holding `permission`. Not signed in: redirects to the sign-in
 * page, which returns to the page asked for (proxy.ts passes its path). Without the permission: a 403 page.
 */
export async function requireUser(permission?: Permission): Promise<StaffUser> {
  const user = await getCurrentUser();
  if (!user) redirect(`/sign-in?from=${encodeURIComponent(safeReturnPath((await headers()).get(requestPathHeader)))}`);
  if (permission && !can(user.role, permission)) forbidden();
  return user;
}
