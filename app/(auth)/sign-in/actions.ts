"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { signIn } from "@/lib/auth/config";
import { safeReturnPath } from "@/lib/auth/safe-redirect";

export interface SignInState {
  error: string | null;
}

export async function signInWithPassword(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = form.get("email");
  const password = form.get("password");
  if (typeof email !== "string" || !email.trim()) return { error: "Enter your email address." };
  if (typeof password !== "string" || !password) return { error: "Enter your password." };
  try {
    // On success this throws Next's redirect, which must propagate.
    await signIn("credentials", { email, password, redirectTo: safeReturnPath(form.get("from")) });
    return { error: null };
  } catch (error) {
    if (error instanceof CredentialsSignin && error.code === "throttled") {
      return { error: "Too many failed sign-ins. Wait a few minutes before trying again." };
    }
    if (error instanceof AuthError) return { error: "Email or password is wrong, or the account is locked." };
    throw error;
  }
}

export async function signInWithSso(form: FormData): Promise<void> {
  await signIn("oidc", { redirectTo: safeReturnPath(form.get("from")) });
}
