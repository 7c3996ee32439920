"use client";

import dynamic from "next/dynamic";
import { useCallback, useEffect, useRef, useState } from "react";

const CommandPalette = dynamic(() => import("./command-palette"), { ssr: false });

const isPaletteKey = (event: KeyboardEvent) => event.key.toLowerCase() === "k" && (event.metaKey || event.ctrlKey);

/**
 * The command palette without its weight on first load: cmdk and its dialog (~15 kB gzip) load once the page is idle
 * after hydration, or at once on Ctrl/Cmd-K. Until the palette is mounted and listening (`onReady`), this listens for
 * the keys itself, so a Ctrl/Cmd-K pressed while the palette's code is still on its way opens it when it arrives.
 */
export function CommandPaletteLoader() {
  const [load, setLoad] = useState(false);
  const [openRequested, setOpenRequested] = useState(false);
  const ready = useRef(false);
  const onReady = useCallback(() => {
    ready.current = true;
  }, []);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (ready.current || !isPaletteKey(event)) return;
      event.preventDefault();
      setOpenRequested(true);
      setLoad(true);
    }
    window.addEventListener("keydown", onKey);
    const start = () => setLoad(true);
    const idle = typeof window.requestIdleCallback === "function" ? window.requestIdleCallback(start, { timeout: 3000 }) : undefined;
    const timer = idle === undefined ? window.setTimeout(start, 1500) : undefined;
    return () => {
      window.removeEventListener("keydown", onKey);
      if (idle !== undefined) window.cancelIdleCallback(idle);
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, []);

  return load ? <CommandPalette openRequested={openRequested} onReady={onReady} /> : null;
}
