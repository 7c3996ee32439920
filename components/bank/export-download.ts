import { createRecordCounter } from "@/lib/csv/record-counter";

// Loaded when "Export CSV" is first pointed at, focused or pressed (components/bank/export-csv-button.tsx): the
// download itself is no part of a list's first paint.

/** How an export ended: saved with its row count, or failed with a sentence for the person and the request's id. */
export type ExportOutcome = { step: "done"; rows: number } | { step: "failed"; message: string; requestId: string | null };

/** The list's own paging is not a filter: an export always covers the whole filtered list (the route refuses a cursor). */
const pagingParameters = new Set(["page_cursor", "page_size"]);

function exportUrl(resource: string, query: Record<string, string>): string {
  const filters = new URLSearchParams(Object.entries(query).filter(([name, value]) => !pagingParameters.has(name) && value !== ""));
  const search = filters.toString();
  return `/api/export/${encodeURIComponent(resource)}${search ? `?${search}` : ""}`;
}

/** The console's `{"error": {"code", "message"}}`, or a plain sentence when the body is something else. */
async function errorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === "string") return body.error.message;
  } catch {
    // Not JSON: fall through to the status.
  }
  return `The export failed (HTTP ${response.status}).`;
}

function fileName(response: Response, resource: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
  return match?.[1] ?? `${resource}.csv`;
}

function save(parts: BlobPart[], name: string) {
  const url = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  // The click has started the download from the Blob; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Streams `/api/export/<resource>` under the list's filters, reports the rows counted so far as they arrive, and saves
 * the file once the whole answer is in. An unmasked export (`reason` given) is a reveal: it carries the reason, which
 * the server audits with it (docs/reviews.md). A download that stops midway saves nothing, so a partial file never
 * passes for the whole list.
 */
export async function downloadExport({
  resource,
  query,
  reason,
  signal,
  onRows,
}: {
  resource: string;
  query: Record<string, string>;
  /** Set for an unmasked export. */
  reason?: string;
  signal: AbortSignal;
  onRows(rows: number): void;
}): Promise<ExportOutcome> {
  let requestId: string | null = null;
  try {
    const response = await fetch(
      exportUrl(resource, query),
      reason === undefined
        ? { method: "GET", signal }
        : { method: "POST", signal, headers: { "content-type": "application/json" }, body: JSON.stringify({ reason }) },
    );
    requestId = response.headers.get("x-request-id");
    if (!response.ok || !response.body) return { step: "failed", message: await errorMessage(response), requestId };
    const reader = response.body.getReader();
    const counter = createRecordCounter();
    const parts: BlobPart[] = [];
    let rows = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      parts.push(chunk.value);
      // The header is a record too.
      rows = Math.max(0, counter.push(chunk.value) - 1);
      onRows(rows);
    }
    save(parts, fileName(response, resource));
    return { step: "done", rows };
  } catch {
    const message = signal.aborted
      ? "Export canceled; nothing was saved."
      : "The export stopped before its end (the connection or the bank failed); nothing was saved. Try again.";
    return { step: "failed", message, requestId };
  }
}
