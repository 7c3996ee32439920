import { shownInListReads } from "@/lib/index/console-webhooks";
import { fieldSources } from "./derived";
import type { ResourceDefinition } from "./types";

/**
 * A list page as the server hands it to the browser with the first HTML: each row cut to the fields the list's
 * columns show (hidden-by-default columns included, since the user may show them; a derived column, the fields it is
 * computed from) and what decides whether the list shows it at all (a webhook's Basic user: the console's own
 * subscriptions are kept apart), so the hydration payload does not carry every field of 100 objects that the rows' HTML
 * does not use. Everything else of the page (cursors, index
 * notes) is kept. The browser's own reads (next page, filters, a refresh) get whole objects, as before.
 */
export function listPayload<Page extends { data?: unknown }>(definition: Pick<ResourceDefinition, "columns">, page: Page): Page {
  if (!Array.isArray(page.data)) return page;
  const keys = new Set(["id", ...shownInListReads, ...definition.columns.flatMap(fieldSources)]);
  const data = page.data.map((row: unknown) =>
    row && typeof row === "object" ? Object.fromEntries(Object.entries(row).filter(([key]) => keys.has(key))) : row,
  );
  return { ...page, data };
}
