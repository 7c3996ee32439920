"use client";

import { useActionState, type ReactNode } from "react";
import type { ReviewActionState } from "@/lib/reviews/actions";

export type ReviewAction = (previous: ReviewActionState, form: FormData) => Promise<ReviewActionState>;

const initial: ReviewActionState = { error: null, done: null };

/**
 * A case change as a form posting to its server action (which checks the permission and the case's rules again and
 * audits it); the refusal or the result is told right under it. `children` are the form's fields and its button.
 */
export function ReviewForm({
  action,
  hidden,
  children,
  className = "",
  testId,
}: {
  action: ReviewAction;
  hidden: Record<string, string>;
  children: (pending: boolean) => ReactNode;
  className?: string;
  testId?: string;
}) {
  const [state, run, pending] = useActionState(action, initial);
  return (
    <form action={run} className={className} data-testid={testId}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children(pending)}
      {state.error ? (
        <p role="alert" className="col-span-full mt-1 w-full text-xs text-red-700 dark:text-red-300">
          {state.error}
        </p>
      ) : state.done ? (
        <p role="status" className="col-span-full mt-1 w-full text-xs text-muted">
          {state.done}
        </p>
      ) : null}
    </form>
  );
}
