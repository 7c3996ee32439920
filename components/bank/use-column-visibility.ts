"use client";

import { useEffect, useState } from "react";
import type { Field } from "@/lib/resources";

type Visibility = Record<string, boolean>;

/**
 * Which columns of a list are shown, remembered per user and list in this browser (localStorage). The server renders
 * the defaults; a saved choice applies right after hydration.
 */
export function useColumnVisibility(userId: string, listName: string, columns: Field[]): [Visibility, (column: string, visible: boolean) => void] {
  const storageKey = `bank-console:columns:${userId}:${listName}`;
  const defaults = Object.fromEntries(columns.map((column) => [column.key, !column.hiddenByDefault]));
  const [visibility, setVisibility] = useState<Visibility>(defaults);

  useEffect(() => {
    try {
      const saved = JSON.parse(window.localStorage.getItem(storageKey) ?? "null") as Visibility | null;
      if (saved && typeof saved === "object") setVisibility((current) => ({ ...current, ...saved }));
    } catch {
      // A damaged saved choice is ignored: the defaults stay.
    }
  }, [storageKey]);

  function setColumn(column: string, visible: boolean) {
    setVisibility((current) => {
      const next = { ...current, [column]: visible };
      window.localStorage.setItem(storageKey, JSON.stringify(next));
      return next;
    });
  }
  return [visibility, setColumn];
}
