"use client";

import Link from "next/link";
import { isSignedOut, SignInAgainLink } from "@/components/auth/sign-in-again";
import { useCan } from "@/components/console/providers";
import { describeFailure } from "@/lib/bank/browser";

/** A failed action, inline: what kind of failure, the bank's (or console's) message, and the request id to quote. */
export function ActionError({ error, testId = "action-error" }: { error: unknown; testId?: string }) {
  if (!error) return null;
  const { title, message, requestId } = describeFailure(error);
  return (
    <div
      role="alert"
      data-testid={testId}
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
    >
      <p>
        <span className="font-semibold">{title}:</span> {message}
        {isSignedOut(error) ? (
          <>
            {" "}
            <SignInAgainLink /> to return to this page.
          </>
        ) : null}
      </p>
      {requestId ? <p className="font-mono text-xs opacity-80">request id {requestId}</p> : null}
    </div>
  );
}

/**
 * Where the audit record of an action is: the audit log filtered to it for roles that may read the log, otherwise
 * the Timeline of the object's page (which shows who, when and what to every role).
 */
export function AuditLink({ target, action, historyHref = "#history" }: { target: string; action: string; historyHref?: string }) {
  const canReadAudit = useCan("audit:read");
  if (canReadAudit) {
    return (
      <Link href={`/audit?${new URLSearchParams({ target, action })}`} className="underline" data-testid="audit-link">
        its audit record
      </Link>
    );
  }
  return (
    <a href={historyHref} className="underline" data-testid="audit-link">
      its record in the Timeline
    </a>
  );
}
