"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { signIn } from "@/lib/auth/config";
import { safeReturnPath } from "@/lib/auth/safe-redirect";

export interface SignInState {
  error: string | null;
  /** The email typed, so the form keeps it after a refusal (the password is never sent back). */
  email?: string;
}

export async function signInWithPassword(_previous: SignInState, form: FormData): Promise<SignInState> {
  // A request built by hand (a plain-text body) reaches here with something else than the form: refused, not a 500.
  if (!(form instanceof FormData)) return { error: "Send the sign-in form." };
  const email = form.get("email");
  const password = form.get("password");
  if (typeof email !== "string" || !email.trim()) return { error: "Enter your email address." };
  if (typeof password !== "string" || !password) return { error: "Enter your password.", email };
  try {
    // On success this throws Next's redirect, which must propagate.
    await signIn("credentials", { email, password, redirectTo: safeReturnPath(form.get("from")) });
    return { error: null };
  } catch (error) {
    if (error instanceof CredentialsSignin && error.code === "throttled") {
      return { error: "Too many failed sign-ins. Wait a few minutes before trying again.", email };
    }
    if (error instanceof AuthError) return { error: "Email or password is wrong, or the account is locked.", email };
    throw error;
  }
}

export async function signInWithSso(form: FormData): Promise<void> {
  if (!(form instanceof FormData)) return;
  await signIn("oidc", { redirectTo: safeReturnPath(form.get("from")) });
}
