"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Notice } from "@/components/ui/notice";
import { describeFailure } from "@/lib/bank/browser";
import { SearchResultList } from "./search-results";
import { hitHref, useDebounced, useSearch } from "./use-search";

/**
 * The search page (`/search?q=`): the query stays in the URL so a search can be shared; arrows move, Enter opens the
 * chosen result (the top one by default). `confirmFirst` (an audited search another site's link opened) holds the
 * query until the person runs it or types.
 */
export function SearchView({ initialQuery, confirmFirst = false }: { initialQuery: string; confirmFirst?: boolean }) {
  const router = useRouter();
  const [q, setQ] = useState(initialQuery);
  const [held, setHeld] = useState(confirmFirst && initialQuery.trim() !== "");
  const [active, setActive] = useState(0);
  const { results, hits, settled, isFetching, error } = useSearch(held ? "" : q);
  const inUrl = useDebounced(q.trim(), 300);

  useEffect(() => {
    const wanted = inUrl ? `/search?${new URLSearchParams({ q: inUrl })}` : "/search";
    if (`${window.location.pathname}${window.location.search}` !== wanted) router.replace(wanted, { scroll: false });
  }, [inUrl, router]);

  const current = results && settled === q.trim() ? results : undefined;
  const failure = error ? describeFailure(error) : null;

  return (
    <div className="flex max-w-4xl flex-col gap-4">
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const hit = current ? hits[active] : undefined;
          if (hit) router.push(hitHref(hit));
        }}
      >
        <label htmlFor="search-page-input" className="sr-only">
          Search the index of the bank
        </label>
        <input
          id="search-page-input"
          type="search"
          value={q}
          autoFocus
          autoComplete="off"
          spellCheck={false}
          placeholder="ach_…, $1,234.56, a name, an email, a trace number, the last four…"
          onChange={(event) => {
            setQ(event.target.value);
            setHeld(false);
            setActive(0);
          }}
          onKeyDown={(event) => {
            if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
            event.preventDefault();
            if (hits.length === 0) return;
            setActive((index) => (event.key === "ArrowDown" ? Math.min(index + 1, hits.length - 1) : Math.max(index - 1, 0)));
          }}
          className="w-full rounded-md border border-line bg-surface px-3 py-2 text-sm text-fg placeholder:text-muted"
        />
      </form>
      {held ? (
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-line bg-surface p-3 text-sm" data-testid="search-confirm">
          <span>Run this search? A link from another site opened it, and your searches are recorded in the audit trail under your name.</span>
          <button type="button" onClick={() => setHeld(false)} className="rounded bg-accent px-2.5 py-1 text-xs font-medium text-accent-fg">
            Run this search
          </button>
        </div>
      ) : null}
      <p role="status" className="text-xs text-muted" data-testid="search-summary">
        {held
          ? ""
          : !q.trim()
            ? "Type to search."
            : current
              ? `${current.total === 50 ? "The best 50" : current.total} result${current.total === 1 ? "" : "s"} from the console's index${current.searched.length > 1 ? `, including ${current.searched.filter((part) => part !== "public").join(" and ")} fields (this search is recorded in the audit trail)` : ""}.`
              : isFetching
                ? "Searching…"
                : ""}
      </p>
      {failure ? (
        <Notice tone="error" testId="search-error">
          {failure.title}: {failure.message}
        </Notice>
      ) : null}
      {current && hits.length > 0 ? <SearchResultList results={current} activeIndex={active} idPrefix="search-page" /> : null}
      {current && hits.length === 0 ? <p className="text-sm text-muted">Nothing in the index matches “{q.trim()}”.</p> : null}
    </div>
  );
}
