import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { oidcProvider } from "@/lib/auth/config";
import { getCurrentUser } from "@/lib/auth/current-user";
import { safeReturnPath } from "@/lib/auth/safe-redirect";
import { signInWithSso } from "./actions";

export const metadata = { title: "Sign in · Bank console" };

// Errors Auth.js reports by redirecting here (single sign-on refusals); everything else is shown by the form itself.
const redirectErrors: Record<string, string> = {
  AccessDenied: "Your single sign-on account is not a console staff user, or it is locked. Ask an admin.",
  Configuration: "Sign-in is misconfigured on the server. Ask an admin.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const from = safeReturnPath(query.from);
  if (await getCurrentUser()) redirect(from);
  const error = typeof query.error === "string" ? (redirectErrors[query.error] ?? "Sign-in failed. Try again.") : null;

  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm rounded-lg border border-line bg-surface p-6 shadow-sm">
        <h1 className="text-xl font-semibold">Bank console</h1>
        <p className="mb-6 mt-1 text-sm text-muted">Sign in with your staff account.</p>
        {error ? (
          <div className="mb-4">
            <Notice tone="error">{error}</Notice>
          </div>
        ) : null}
        <SignInForm from={from} />
        {oidcProvider ? (
          <form action={signInWithSso} className="mt-4 border-t border-line pt-4">
            <input type="hidden" name="from" value={from} />
            <Button type="submit" variant="secondary" className="w-full">
              Sign in with {oidcProvider.name}
            </Button>
          </form>
        ) : null}
      </div>
    </main>
  );
}
