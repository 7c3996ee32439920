"use client";

import { useMemo, useState, useSyncExternalStore } from "react";
import type { ColumnLayout } from "@/components/ui/data-table";
import type { Field } from "@/lib/resources";
import { layoutOf, withDefaultVisibility } from "@/lib/views/layout";

const changeEvent = "bank-console:columns";

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(changeEvent, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(changeEvent, onChange);
  };
}

function parse(saved: string | null): unknown {
  try {
    return JSON.parse(saved ?? "null") as unknown;
  } catch {
    return null; // A damaged saved choice is ignored: the defaults stay.
  }
}

/**
 * How a person arranged a list's columns (shown, order, widths), remembered per user and list in this browser
 * (localStorage; a choice kept before order and widths existed was the visibility alone, and still reads). The server
 * renders the defaults; a saved arrangement applies right after hydration.
 */
export function useColumnLayout(userId: string, listName: string, columns: Field[]): [ColumnLayout, (next: ColumnLayout) => void] {
  const storageKey = `bank-console:columns:${userId}:${listName}`;
  const saved = useSyncExternalStore(
    subscribe,
    () => window.localStorage.getItem(storageKey),
    () => null,
  );
  const layout = useMemo(() => withDefaultVisibility(columns, layoutOf(columns, parse(saved))), [columns, saved]);
  function setLayout(next: ColumnLayout) {
    window.localStorage.setItem(storageKey, JSON.stringify(next));
    window.dispatchEvent(new Event(changeEvent));
  }
  return [layout, setLayout];
}

/**
 * The arrangement a list shows: in a saved view, the view's (a change there stays on this page until saved as a
 * view); otherwise the person's own, remembered in this browser. `reset` goes back to the view's, or the list's own.
 */
export function useListLayout(
  userId: string,
  listName: string,
  columns: Field[],
  view: { id: string; columns: Record<string, boolean>; layout: unknown } | undefined,
): { layout: ColumnLayout; setLayout(next: ColumnLayout): void; reset(): void } {
  const [own, setOwn] = useColumnLayout(userId, listName, columns);
  const [edited, setEdited] = useState<{ view: string; layout: ColumnLayout } | null>(null);
  const saved = useMemo(
    () => (view ? withDefaultVisibility(columns, layoutOf(columns, { ...(view.layout as object), visibility: view.columns })) : null),
    [columns, view],
  );
  if (!view || !saved) return { layout: own, setLayout: setOwn, reset: () => setOwn({ visibility: {}, order: [], widths: {} }) };
  return {
    layout: edited?.view === view.id ? edited.layout : saved,
    setLayout: (next) => setEdited({ view: view.id, layout: next }),
    reset: () => setEdited(null),
  };
}
