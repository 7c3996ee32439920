"use client";

import { useMemo, useSyncExternalStore } from "react";
import type { Field } from "@/lib/resources";

type Visibility = Record<string, boolean>;

const changeEvent = "bank-console:columns";

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(changeEvent, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(changeEvent, onChange);
  };
}

function parse(saved: string | null): Visibility {
  try {
    const value = JSON.parse(saved ?? "null") as unknown;
    return value && typeof value === "object" ? (value as Visibility) : {};
  } catch {
    return {}; // A damaged saved choice is ignored: the defaults stay.
  }
}

/**
 * Which columns of a list are shown, remembered per user and list in this browser (localStorage). The server renders
 * the defaults; a saved choice applies right after hydration.
 */
export function useColumnVisibility(userId: string, listName: string, columns: Field[]): [Visibility, (column: string, visible: boolean) => void] {
  const storageKey = `bank-console:columns:${userId}:${listName}`;
  const saved = useSyncExternalStore(
    subscribe,
    () => window.localStorage.getItem(storageKey),
    () => null,
  );
  const visibility = useMemo(
    () => ({ ...Object.fromEntries(columns.map((column) => [column.key, !column.hiddenByDefault])), ...parse(saved) }),
    [columns, saved],
  );
  function setColumn(column: string, visible: boolean) {
    window.localStorage.setItem(storageKey, JSON.stringify({ ...parse(saved), [column]: visible }));
    window.dispatchEvent(new Event(changeEvent));
  }
  return [visibility, setColumn];
}
