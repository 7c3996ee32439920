import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { consoleDb } from "@/lib/db/console";
import { can, type Permission } from "@/lib/permissions";
import { accessCache } from "./console-access";
import { requestPathHeader } from "./request-path";
import { safeReturnPath } from "./safe-redirect";
import { readSessionToken } from "./session-token";
import { findSession } from "./sessions";
import type { StaffUser } from "./staff-user";

export type { StaffUser } from "./staff-user";

/**
 * The signed-in staff user, with their server-side session: a session that was ended (sign-out, lock, role change,
 * removal, "sign out everywhere") or expired gets null on the very next request. Read through the access cache,
 * which every change to staff users and their sessions invalidates through the database (lib/auth/access-cache.ts),
 * so a request costs one tiny version read instead of a join. Null when not signed in.
 */
async function readCurrentUser(): Promise<StaffUser | null> {
  const token = await readSessionToken();
  if (!token) return null;
  const session = await accessCache.get(`session:${token.sid}`, async () => findSession((await consoleDb()).db, token.sid));
  if (!session || session.expiresAt.getTime() <= Date.now() || session.user.id !== token.sub) return null;
  return session.user;
}

/** Read once per request: the layout and the page of one render share the answer (React's request-scoped cache). */
export const getCurrentUser = cache(readCurrentUser);

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
