"use client";

import { isSignedOut, SignInAgainLink } from "@/components/auth/sign-in-again";
import { describeFailure } from "@/lib/bank/browser";

/** What failed (bank down, timeout, 403, a bad filter...), the console's message, the request id, and a retry. */
export function ErrorState({ error, onRetry, subject }: { error: unknown; onRetry?: () => void; subject: string }) {
  const { title, message, requestId } = describeFailure(error);
  return (
    <div
      role="alert"
      data-testid="error-state"
      className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-semibold">
        {title}: could not load {subject}.
      </p>
      <p className="mt-1" data-testid="error-message">
        {message}
      </p>
      {requestId ? <p className="mt-1 font-mono text-xs opacity-80">request id {requestId}</p> : null}
      {isSignedOut(error) ? (
        <p className="mt-3">
          <SignInAgainLink className="rounded border border-red-400 px-2.5 py-1 text-xs font-medium hover:bg-red-100 dark:hover:bg-red-900" /> to
          return to this page.
        </p>
      ) : onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          className="mt-3 rounded border border-red-400 px-2.5 py-1 text-xs font-medium hover:bg-red-100 dark:hover:bg-red-900"
        >
          Retry
        </button>
      ) : null}
    </div>
  );
}
