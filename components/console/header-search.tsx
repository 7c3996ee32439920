"use client";

import { useEffect, useRef, useState } from "react";
import { lazyComponent } from "@/components/ui/lazy-component";
import type { HeaderSearchHandle } from "./header-search-panel";

// The results, the id lookup and what Enter does are a chunk of their own, loaded when the box is first focused:
// every page's first-load JavaScript carried them (docs/benchmarks.md, pages).
const HeaderSearchPanel = lazyComponent(() => import("./header-search-panel").then((module) => module.HeaderSearchPanel));

/** Whether a key press was typed into something editable (then `/` is a character, not a shortcut). */
const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/**
 * The shell's search box (docs/search.md): `/` focuses it; what is typed goes to its panel (header-search-panel.tsx),
 * which shows the index's results and opens the chosen one on Enter. An Enter pressed before the panel's code has
 * arrived is kept and done once it has.
 */
export function HeaderSearch() {
  const input = useRef<HTMLInputElement>(null);
  const panel = useRef<HeaderSearchHandle | null>(null);
  const submitQueued = useRef(false);
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [engaged, setEngaged] = useState(false);

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

  return (
    <form
      role="search"
      className="relative min-w-0 flex-1 sm:flex-none"
      onSubmit={(event) => {
        event.preventDefault();
        if (panel.current) panel.current.submit();
        else submitQueued.current = true;
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
        aria-describedby={engaged ? "id-search-status" : undefined}
        onPointerEnter={HeaderSearchPanel.preload}
        onFocus={() => {
          setEngaged(true);
          setOpen(true);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(event) => {
          setQ(event.target.value);
          setOpen(true);
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            setOpen(false);
            return;
          }
          if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
          event.preventDefault();
          panel.current?.move(event.key === "ArrowDown" ? 1 : -1);
        }}
        className="w-full rounded-md border border-line bg-surface px-2 py-1 text-xs text-fg placeholder:text-muted sm:w-72"
      />
      {engaged ? (
        <HeaderSearchPanel
          ref={(handle: HeaderSearchHandle | null) => {
            panel.current = handle;
            if (handle && submitQueued.current) {
              submitQueued.current = false;
              handle.submit();
            }
          }}
          q={q}
          open={open}
          setOpen={setOpen}
          blurBox={() => input.current?.blur()}
        />
      ) : null}
    </form>
  );
}
