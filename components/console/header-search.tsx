"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { hitHref, useSearch } from "@/components/search/use-search";
import { lazyComponent } from "@/components/ui/lazy-component";
import { startNavigationProgress } from "@/components/ui/route-progress";
import { useOpenById } from "./use-open-by-id";

// The results' rendering is a chunk of its own, asked for when the box is focused: every page's first-load
// JavaScript carried it (docs/benchmarks.md, pages).
const SearchResultList = lazyComponent(() => import("@/components/search/search-results").then((module) => module.SearchResultList), {
  fallback: <p className="px-2 py-1 text-sm text-muted">Searching…</p>,
});

/** The dropdown shows the best few of each kind; the search page shows them all. */
const limitPerGroup = 5;
const idLike = /^[a-z]+_[A-Za-z0-9_-]+$/;

/** Whether a key press was typed into something editable (then `/` is a character, not a shortcut). */
const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/**
 * The shell's search box (docs/search.md): results from the index as you type, grouped by kind; `/` focuses it, the
 * arrows move, Enter opens the chosen result (the top one unless the arrows chose another). A full id opens through
 * the bank, as before the index existed, so an object the index has not seen yet still opens; a query with no result
 * loaded yet opens the search page.
 */
export function HeaderSearch() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [arrowed, setArrowed] = useState(false);
  const byId = useOpenById(() => setOpen(false));
  const { results, hits, settled, isFetching } = useSearch(q, { limitPerGroup });

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== "/" || event.metaKey || event.ctrlKey || event.altKey || typingIn(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  function go(href: string) {
    startNavigationProgress();
    router.push(href);
  }

  const text = q.trim();
  const showing = open && text.length > 0;
  const current = results && settled === text ? results : undefined;

  function openHit(index: number) {
    const hit = hits[index];
    if (!hit) return;
    setOpen(false);
    input.current?.blur();
    go(hitHref(hit));
  }

  function submit() {
    if (!text) return;
    if (arrowed && current && hits[active]) return openHit(active);
    if (idLike.test(text)) return void byId.open(text);
    if (current && hits.length > 0) return openHit(0);
    setOpen(false);
    go(`/search?${new URLSearchParams({ q: text })}`);
  }

  return (
    <form
      role="search"
      className="relative min-w-0 flex-1 sm:flex-none"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor="header-search" className="sr-only">
        Search the bank
      </label>
      <input
        ref={input}
        id="header-search"
        name="q"
        type="search"
        value={q}
        placeholder="Search ids, amounts, names, emails…   /"
        autoComplete="off"
        spellCheck={false}
        aria-describedby="id-search-status"
        onFocus={() => {
          setOpen(true);
          SearchResultList.preload();
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(event) => {
          setQ(event.target.value);
          setActive(0);
          setArrowed(false);
          setOpen(true);
          byId.reset();
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            setOpen(false);
            return;
          }
          if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
          event.preventDefault();
          if (hits.length === 0) return;
          setOpen(true);
          setArrowed(true);
          setActive((index) => (event.key === "ArrowDown" ? Math.min(index + 1, hits.length - 1) : Math.max(index - 1, 0)));
        }}
        className="w-full rounded-md border border-line bg-surface px-2 py-1 text-xs text-fg placeholder:text-muted sm:w-72"
      />
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
      {showing && byId.status.state === "idle" ? (
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
              <p className="px-2 py-1 text-sm text-muted">Nothing in the index matches “{text}”.</p>
            )
          ) : (
            <p className="px-2 py-1 text-sm text-muted">{isFetching ? "Searching…" : "Type to search"}</p>
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
    </form>
  );
}
