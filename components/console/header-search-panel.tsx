"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useImperativeHandle, useState, type Ref } from "react";
import { SearchResultList } from "@/components/search/search-results";
import { describeFailure } from "@/lib/bank/browser";
import { hitHref, orderedHits, useSearch } from "@/components/search/use-search";
import type { SearchHit } from "@/lib/search/search";
import { startNavigationProgress } from "@/components/ui/navigation-progress";
import { useOpenById } from "./use-open-by-id";

/** The dropdown shows the best few of each kind; the search page shows them all. */
const limitPerGroup = 5;
const idLike = /^[a-z]+_[A-Za-z0-9_-]+$/;

/** What the search box asks of its panel: Enter, and the arrow keys. */
export interface HeaderSearchHandle {
  submit(): void;
  move(by: 1 | -1): void;
}

/**
 * The header search's results and what Enter does (header-search.tsx is the box): results from the index as you type
 * (a preview of public fields, never recorded), then, once typing rests or on Enter, the search itself (recorded for
 * roles whose searches are audited: one record per search, not per keystroke; lib/search/search-preview.ts), grouped
 * by kind; the arrows move, Enter opens the chosen result (the top one unless the arrows chose another). A full id
 * opens through the bank, as before the index existed, so an object the index has not seen yet still opens; a query
 * with no result opens the search page.
 */
export function HeaderSearchPanel({
  ref,
  q,
  open,
  setOpen,
  blurBox,
}: {
  ref: Ref<HeaderSearchHandle>;
  q: string;
  open: boolean;
  setOpen(open: boolean): void;
  blurBox(): void;
}) {
  const router = useRouter();
  const [active, setActive] = useState(0);
  const [arrowed, setArrowed] = useState(false);
  const byId = useOpenById(() => setOpen(false));
  const { results, hits, settled, isFetching, error, runNow } = useSearch(q, { limitPerGroup, typingAlready: true });
  // A new query starts again from the top result, and clears a failed id lookup.
  const [shownQ, setShownQ] = useState(q);
  if (q !== shownQ) {
    setShownQ(q);
    setActive(0);
    setArrowed(false);
    byId.reset();
  }

  const text = q.trim();
  const current = results && settled === text ? results : undefined;

  function go(href: string) {
    startNavigationProgress();
    router.push(href);
  }

  function openHit(hit: SearchHit | undefined) {
    if (!hit) return;
    setOpen(false);
    blurBox();
    go(hitHref(hit));
  }

  function openSearchPage() {
    setOpen(false);
    go(`/search?${new URLSearchParams({ q: text })}`);
  }

  // Enter is a search the person ran: it runs (and records) the search for the query at once, then opens its top
  // result; a result the arrows chose was already shown, and a full id opens through the bank.
  function submit() {
    if (!text) return;
    if (arrowed && current && hits[active]) return openHit(hits[active]);
    if (idLike.test(text)) return void byId.open(text);
    runNow().then((searched) => (searched.total > 0 ? openHit(orderedHits(searched, limitPerGroup)[0]) : openSearchPage()), openSearchPage);
  }

  useImperativeHandle(ref, () => ({
    submit,
    move(by) {
      if (hits.length === 0) return;
      setOpen(true);
      setArrowed(true);
      setActive((index) => Math.min(Math.max(index + by, 0), hits.length - 1));
    },
  }));

  return (
    <>
      <p
        id="id-search-status"
        role="status"
        data-testid="id-search-status"
        className="absolute top-full right-0 left-0 z-40 mt-1 text-xs sm:right-auto sm:w-96"
      >
        {byId.status.state === "checking" ? <span className="rounded bg-surface-2 px-2 py-1 text-muted">Looking up {byId.status.id}…</span> : null}
        {byId.status.state === "failed" ? (
          <span className="block rounded border border-red-300 bg-red-50 px-2 py-1 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
            {byId.status.message}
          </span>
        ) : null}
      </p>
      {open && text.length > 0 && byId.status.state === "idle" ? (
        <div
          data-testid="header-search-results"
          className="absolute top-full right-0 left-0 z-40 mt-1 max-h-[70vh] overflow-y-auto rounded-lg border border-line bg-surface p-2 shadow-xl sm:right-auto sm:w-[36rem]"
        >
          <p className="sr-only" role="status">
            {current ? `${current.total} results; the arrow keys choose one and Enter opens it` : ""}
          </p>
          {current ? (
            hits.length > 0 ? (
              <SearchResultList
                results={current}
                activeIndex={active}
                limitPerGroup={limitPerGroup}
                idPrefix="header-search"
                onChoose={() => setOpen(false)}
              />
            ) : (
              <p data-testid="search-empty" className="px-2 py-1 text-sm text-muted">
                Nothing in the index matches “{text}”.
              </p>
            )
          ) : (
            <p
              data-testid={error ? "search-error" : undefined}
              className={`px-2 py-1 text-sm ${error ? "text-red-700 dark:text-red-300" : "text-muted"}`}
            >
              {isFetching ? "Searching…" : error ? describeFailure(error).message : "Type to search"}
            </p>
          )}
          <Link
            href={`/search?${new URLSearchParams({ q: text })}`}
            onClick={() => setOpen(false)}
            className="mt-2 block border-t border-line px-2 pt-2 text-xs text-muted hover:text-fg"
          >
            All results for “{text}” →
          </Link>
        </div>
      ) : null}
    </>
  );
}
