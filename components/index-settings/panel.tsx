import type { ReactNode } from "react";
import type { IndexAction } from "./index-action-button";

/** One part of an environment's index settings: a titled card, its controls on the right of the title. */
export function Panel({
  title,
  description,
  actions,
  children,
  testId,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <section data-testid={testId} aria-label={title} className="rounded-md border border-line bg-surface p-4">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold">{title}</h2>
          {description ? <p className="mt-0.5 text-xs text-muted">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center justify-end gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** The settings' actions, passed from the page (server actions of lib/actions/index-settings.ts). */
export interface IndexSettingsActions {
  rotateReceiverSecret: IndexAction;
  setUpSubscriptions: IndexAction;
  resetSubscription: IndexAction;
  startBackfill: IndexAction;
  purgeIndex: IndexAction;
}
