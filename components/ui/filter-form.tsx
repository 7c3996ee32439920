import type { ReactNode } from "react";
import { Button } from "./button";

/**
 * A list's filters as a plain GET form: submitting it puts them in the query string, so the URL is the state
 * (shareable, works without JavaScript, back button included) and a new filter starts again at the first page. The
 * export link carries the same filters.
 */
export function FilterForm({ action, label, exportHref, children }: { action: string; label: string; exportHref: string; children: ReactNode }) {
  return (
    <form
      method="get"
      action={action}
      className="mb-4 grid gap-3 rounded-md border border-line bg-surface p-4 sm:grid-cols-3 lg:grid-cols-6 [&>*]:min-w-0"
      aria-label={label}
    >
      {children}
      <div className="flex flex-wrap items-end gap-2">
        <Button type="submit">Filter</Button>
        <a className="rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:bg-surface-2" href={exportHref} download>
          Export CSV
        </a>
      </div>
    </form>
  );
}
