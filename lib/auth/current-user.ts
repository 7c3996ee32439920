import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { consoleDb } from "@/lib/db/console";
import { can, type Permission } from "@/lib/permissions";
import { auth } from "./config";
import { requestPathHeader } from "./request-path";
import { safeReturnPath } from "./safe-redirect";
import { findSessionUser } from "./sessions";
import type { StaffUser } from "./staff-users";

export type { StaffUser } from "./staff-users";

/**
 * The signed-in staff user, read with their server-side session on every call (one query): a session that was ended
 * (sign-out, lock, role change, removal, "sign out everywhere") or expired gets null at once. Null when not signed in.
 */
async function readCurrentUser(): Promise<StaffUser | null> {
  const session = await auth();
  if (!session?.sessionId) return null;
  const user = await findSessionUser((await consoleDb()).db, session.sessionId);
  return user && user.id === session.user?.id ? user : null;
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
