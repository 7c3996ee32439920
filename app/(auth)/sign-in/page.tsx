import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { oidcProvider } from "@/lib/auth/config";
import { getCurrentUser } from "@/lib/auth/current-user";
import { lastPageCookie } from "@/lib/auth/last-page";
import { safeReturnPath } from "@/lib/auth/safe-redirect";
import { signInWithSso } from "@/lib/actions/sign-in";

export const metadata = { title: "Sign in" };

// Errors Auth.js reports by redirecting here (single sign-on refusals); everything else is shown by the form itself.
const redirectErrors: Record<string, string> = {
  AccessDenied: "Your single sign-on account is not a console staff user, or it is locked. Ask an admin.",
  Configuration: "Sign-in is misconfigured on the server. Ask an admin.",
};

// Why the session a page or an open live stream had ended (lib/auth/sessions.ts: SessionEnd).
const endedMessages: Record<string, string> = {
  idle: "You were signed out after a period without activity. Sign in again to continue.",
  expired: "Your session reached its time limit. Sign in again to continue.",
  ended: "Your session was ended: signed out elsewhere, or your account was changed by an admin.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  // The page asked for; without one (an explicit sign-in), the last console page this browser showed.
  const from = safeReturnPath(query.from ?? (await cookies()).get(lastPageCookie)?.value);
  if (await getCurrentUser()) redirect(from);
  const error = typeof query.error === "string" ? (redirectErrors[query.error] ?? "Sign-in failed. Try again.") : null;
  const ended = typeof query.ended === "string" && Object.hasOwn(endedMessages, query.ended) ? endedMessages[query.ended] : undefined;

  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm rounded-lg border border-line bg-surface p-6 shadow-sm">
        <h1 className="text-xl font-semibold">Bank console</h1>
        <p className="mt-1 mb-6 text-sm text-muted">Sign in with your staff account.</p>
        {error ? (
          <div className="mb-4">
            <Notice tone="error">{error}</Notice>
          </div>
        ) : null}
        {ended && !error ? (
          <div className="mb-4">
            <Notice tone="info" testId="sign-in-ended">
              {ended}
            </Notice>
          </div>
        ) : null}
        {typeof query.from === "string" && from !== "/" ? (
          <p data-testid="sign-in-return" className="mb-4 text-sm text-muted">
            Sign in to return to <span className="font-mono break-all text-fg">{from}</span>.
          </p>
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
