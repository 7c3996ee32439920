"use client";

import { useCallback, useEffect, useRef, useState } from "react";

const loadPalette = () => import("./command-palette").then((module) => module.default);
type Palette = Awaited<ReturnType<typeof loadPalette>>;

const isPaletteKey = (event: KeyboardEvent) => event.key.toLowerCase() === "k" && (event.metaKey || event.ctrlKey);

/**
 * The command palette without its weight on first load: cmdk and its dialog (~15 kB gzip) load once the page is idle
 * after hydration, or at once on Ctrl/Cmd-K. Until the palette is mounted and listening (`onReady`), this listens for
 * the keys itself, so a Ctrl/Cmd-K pressed while the palette's code is still on its way opens it when it arrives.
 *
 * The module is imported by hand and the palette rendered once it is here, rather than through `next/dynamic`: that
 * suspends, and React holds a Suspense boundary's content back for up to 300 ms after its fallback showed, which was
 * most of the 230-400 ms from Ctrl/Cmd-K to the palette when it was pressed right after a page loaded
 * (docs/benchmarks.md, pages).
 */
export function CommandPaletteLoader() {
  const [Palette, setPalette] = useState<Palette | null>(null);
  const [openRequested, setOpenRequested] = useState(false);
  const ready = useRef(false);
  const onReady = useCallback(() => {
    ready.current = true;
  }, []);

  useEffect(() => {
    let unmounted = false;
    const load = () => {
      loadPalette().then(
        (component) => {
          if (!unmounted) setPalette(() => component);
        },
        // Its code did not arrive (offline, a new deployment): nothing is mounted, so the next Ctrl/Cmd-K tries again.
        () => {},
      );
    };
    function onKey(event: KeyboardEvent) {
      if (ready.current || !isPaletteKey(event)) return;
      event.preventDefault();
      setOpenRequested(true);
      load();
    }
    window.addEventListener("keydown", onKey);
    const idle = typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(load, { timeout: 3000 }) : undefined;
    const timer = idle === undefined ? window.setTimeout(load, 1500) : undefined;
    return () => {
      unmounted = true;
      window.removeEventListener("keydown", onKey);
      if (idle !== undefined) window.cancelIdleCallback(idle);
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, []);

  return Palette ? <Palette openRequested={openRequested} onReady={onReady} /> : null;
}
