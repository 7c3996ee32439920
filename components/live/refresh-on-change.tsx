"use client";

import type { ResourceName } from "@/lib/resources";
import { useRefreshOnChange } from "./use-refresh-on-change";

/**
 * For a server-rendered page (Home): shows itself again when an object of one of `resources` changes, at most once
 * every two seconds, since each time reads the bank again and the bank's lifecycle changes objects all the time.
 */
export function RefreshOnChange({ resources }: { resources: readonly ResourceName[] }) {
  useRefreshOnChange((change) => resources.includes(change.resource), 2_000);
  return null;
}
