import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { consoleDb } from "@/lib/db/console";
import { env } from "@/lib/env/console";
import { can, type Permission } from "@/lib/permissions";
import { accessCache } from "./console-access";
import { requestPathHeader } from "./request-path";
import { safeReturnPath } from "./safe-redirect";
import { readSessionToken } from "./session-token";
import { sessionChecker, type SessionCheck } from "./sessions";
import type { StaffUser } from "./staff-user";

export type { StaffUser } from "./staff-user";

/**
 * The console's sessions, checked through the access cache, which every change to staff users and their sessions
 * invalidates through the database (lib/auth/access-cache.ts), so a request costs one tiny version read instead of a
 * join; idle sessions end after SESSION_IDLE_TIMEOUT_MINUTES (lib/auth/sessions.ts).
 */
export const consoleSessions = sessionChecker({
  db: async () => (await consoleDb()).db,
  cache: accessCache,
  idleMs: env.SESSION_IDLE_TIMEOUT_MINUTES * 60_000,
});

/**
 * The request's session: its user, or why it ended (sign-out, lock, role change, removal, "sign out everywhere",
 * its lifetime, idleness), applied on the very next request. Null when no valid session cookie came. A request counts
 * as a use of the session. Read once per request: the layout and the page of one render share it (React's cache).
 */
const readSession = cache(async (): Promise<SessionCheck | null> => {
  const token = await readSessionToken();
  return token && consoleSessions.use(token);
});

/** The signed-in staff user, or null when not signed in. */
export async function getCurrentUser(): Promise<StaffUser | null> {
  const session = await readSession();
  return session && "user" in session ? session.user : null;
}

/**
 * For pages and server actions: the signed-in user holding `permission`. Not signed in: redirects to the sign-in
 * page, which returns to the page asked for (proxy.ts passes its path) and says why a session ended (`ended`).
 * Without the permission: a 403 page.
 */
export async function requireUser(permission?: Permission): Promise<StaffUser> {
  const session = await readSession();
  if (!session || "ended" in session) {
    const from = encodeURIComponent(safeReturnPath((await headers()).get(requestPathHeader)));
    redirect(`/sign-in?from=${from}${session ? `&ended=${session.ended}` : ""}`);
  }
  if (permission && !can(session.user.role, permission)) forbidden();
  return session.user;
}
