"use client";

import type { ResourceName } from "@/lib/resources";
import { useRefreshOnChange } from "./use-refresh-on-change";

/** For a server-rendered page (Home): shows itself again when an object of one of `resources` changes. */
export function RefreshOnChange({ resources }: { resources: readonly ResourceName[] }) {
  useRefreshOnChange((change) => resources.includes(change.resource), 750);
  return null;
}
