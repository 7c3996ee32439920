"use client";

import { ConsoleApiError } from "@/lib/bank/browser";

/**
 * Downloads the selected rows as CSV (`POST /api/bulk/export`, audited like every export): read whole, then saved
 * under the name the console gave it. At most 500 rows, so the file is small.
 */
export async function downloadSelection(resource: string, ids: string[]): Promise<void> {
  const response = await fetch("/api/bulk/export", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/csv" },
    body: JSON.stringify({ resource, ids }),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new ConsoleApiError(
      response.status,
      body?.error?.code ?? "unknown",
      body?.error?.message ?? `HTTP ${response.status}`,
      response.headers.get("x-request-id"),
    );
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? `${resource}-selection.csv`;
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  URL.revokeObjectURL(url);
}
