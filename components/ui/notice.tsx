import type { ReactNode } from "react";

/** A status line for the result of a form; `tone` picks the colour, `role="status"` lets screen readers announce it. */
export function Notice({ tone, children, testId }: { tone: "error" | "success" | "info"; children: ReactNode; testId?: string }) {
  const colours = {
    error: "border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200",
    success: "border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
    info: "border-line bg-surface text-muted",
  };
  return (
    <p role="status" data-testid={testId} className={`rounded-md border px-3 py-2 text-sm ${colours[tone]}`}>
      {children}
    </p>
  );
}
