"use server";

import { cookies } from "next/headers";
import { signOut } from "@/lib/auth/config";
import { requireUser } from "@/lib/auth/current-user";
import { environmentCookie, isEnvironment } from "@/lib/credentials/environments";

/**
 * Switches the signed-in user's own active environment (see getActiveEnvironment); any role may look at either.
 * Anything but a known environment leaves the choice as it was.
 */
export async function switchEnvironment(form: FormData): Promise<void> {
  await requireUser();
  const environment = form.get("environment");
  if (!isEnvironment(environment)) return;
  (await cookies()).set(environmentCookie, environment, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 * 60 * 24 * 365 });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/sign-in" });
}
