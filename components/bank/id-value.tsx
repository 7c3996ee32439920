"use client";

import { useRouter } from "next/navigation";
import { shortId } from "@/lib/format";
import { CopyButton } from "./copy-button";

// Apart from value.tsx (every format's renderer): pages that show ids only (events, audit, settings) load this alone.

/**
 * An id, shortened for the eye, full in the DOM (title, link, copy). Its link is not prefetched: a list shows up to
 * 200 of them, and every prefetch of a page without a loading boundary is a request through the session check that
 * brings back only the route's shape (~250 bytes), never its data; after each list load those requests kept the
 * server busy for a second or more, and the next page's first byte waited behind them (docs/benchmarks.md, pages).
 */
export function IdValue({ id, href, full = false }: { id: string; href?: string; full?: boolean }) {
  const text = full ? id : shortId(id);
  return (
    // Inline, not flex: the id's text then belongs to the table cell, which carries the first-row paint mark.
    <span className="id-value">
      {href ? (
        <IdLink id={id} href={href}>
          {text}
        </IdLink>
      ) : (
        <span title={id} data-id={id}>
          {text}
        </span>
      )}
      <CopyButton value={id} />
    </span>
  );
}

/**
 * The id's link navigates in the App Router as next/link does on a plain left click (a modified or middle click is the
 * browser's), without next/link's prefetching and link status: a list holds a hundred ids, and each Link hydrated seven
 * hooks, a context provider and a router registration; this holds one hook. The route progress bar sees its clicks as
 * it sees Link's (components/ui/route-progress.tsx, capture phase).
 */
function IdLink({ id, href, children }: { id: string; href: string; children: string }) {
  const router = useRouter();
  return (
    <a
      href={href}
      title={id}
      data-id={id}
      className="link"
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        router.push(href);
      }}
    >
      {children}
    </a>
  );
}
