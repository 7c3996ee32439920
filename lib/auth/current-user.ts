import "server-only";
import { forbidden, redirect } from "next/navigation";
import { consoleDb } from "@/lib/db/console";
import { can, type Permission } from "@/lib/permissions";
import { auth } from "./config";
import { findStaffById, type StaffUser } from "./staff-users";

export type { StaffUser } from "./staff-users";

/**
 * The signed-in staff user, re-read from the database on every call: a locked or removed user gets null at once,
 * and a role change applies on the next request. Null when not signed in.
 */
export async function getCurrentUser(): Promise<StaffUser | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const user = await findStaffById((await consoleDb()).db, id);
  return user && !user.locked ? user : null;
}

/**
 * For pages and server actions: the signed-in user holding `permission`. Not signed in: redirects to the sign-in
 * page (back to `from` afterwards). Signed in without the permission: a 403 (app/forbidden.tsx).
 */
export async function requireUser(permission?: Permission, from = "/"): Promise<StaffUser> {
  const user = await getCurrentUser();
  if (!user) redirect(`/sign-in?from=${encodeURIComponent(from)}`);
  if (permission && !can(user.role, permission)) forbidden();
  return user;
}
