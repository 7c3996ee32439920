import Link from "next/link";
import { firstRowNumber, hasPreviousPage, nextPage, previousPage, searchOf, type ListState } from "@/lib/resources/list-state";

const control = "rounded border border-line bg-surface px-2.5 py-1 text-xs font-medium";

function PageLink({ href, children }: { href: string | null; children: string }) {
  return href ? (
    <Link href={href} className={`${control} text-fg hover:bg-surface-2`}>
      {children}
    </Link>
  ) : (
    <span aria-disabled="true" className={`${control} cursor-not-allowed opacity-40`}>
      {children}
    </span>
  );
}

/**
 * Previous and next links for a list read on the server, in the bank lists' own URL vocabulary
 * (lib/resources/list-state.ts): `page_cursor` for this page, `prev_cursors` for the pages walked through, so a pasted
 * link shows the same rows and "previous" needs no OFFSET.
 */
export function KeysetPager({ path, state, rows, nextCursor }: { path: string; state: ListState; rows: number; nextCursor: string | null }) {
  const first = firstRowNumber(state);
  const href = (target: ListState) => `${path}?${searchOf(target)}`;
  return (
    <nav aria-label="Pages" className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
      <span data-testid="row-range" className="tabular-nums">
        {rows > 0 ? `Rows ${first.toLocaleString("en-US")}–${(first + rows - 1).toLocaleString("en-US")}` : "No rows"}
      </span>
      <div className="flex items-center gap-2">
        <PageLink href={hasPreviousPage(state) ? href(previousPage(state)) : null}>← Previous</PageLink>
        <PageLink href={nextCursor ? href(nextPage(state, nextCursor)) : null}>Next →</PageLink>
      </div>
    </nav>
  );
}
