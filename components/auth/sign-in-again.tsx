"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { ConsoleApiError } from "@/lib/bank/browser";

/** Whether a failure means the session has ended (expired, signed out elsewhere, locked): the console answered 401. */
export const isSignedOut = (error: unknown) => error instanceof ConsoleApiError && error.status === 401;

/**
 * The way back after the session ended while a page was open: sign in again and return to this very page (path and
 * query; the sign-in page checks `from` with `safeReturnPath`).
 */
export function SignInAgainLink({ className = "underline" }: { className?: string }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const from = search ? `${pathname}?${search}` : pathname;
  return (
    // A full page load: the console's pages need the new session cookie from the start.
    <a href={`/sign-in?${new URLSearchParams({ from })}`} data-testid="sign-in-again" className={className}>
      Sign in again
    </a>
  );
}
