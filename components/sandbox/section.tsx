import { useId, type ReactNode } from "react";

/** One part of the Sandbox page: a titled box, named for assistive technology by its heading. */
export function Section({ title, description, testId, children }: { title: string; description: ReactNode; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} data-testid={testId} className="space-y-3 rounded-md border border-line bg-surface p-3 break-words">
      <div>
        <h2 id={id} className="text-sm font-semibold">
          {title}
        </h2>
        <p className="mt-1 text-xs text-muted">{description}</p>
      </div>
      {children}
    </section>
  );
}
