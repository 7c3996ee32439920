/**
 * A list page's state lives in its URL: the bank's own query parameters (filters, `page_size`, `page_cursor`) plus
 * `prev_cursors`, the cursors of the pages already walked through, so "previous" works without OFFSET and a pasted
 * link, a reload or the back button show the same page. Pure functions, shared by the server page and the client list.
 */
export const historyParameter = "prev_cursors";
export const pageSizes = [25, 50, 100, 250] as const;
/** The bank's default page size (the spec's): a URL without page_size shows pages of this many rows. */
export const defaultPageSize = 100;

export interface ListState {
  /** What is sent to the bank, keys sorted so the same page always has the same query key. */
  query: Record<string, string>;
  /** Cursors of the pages before the current one, oldest first; the first page has no cursor and is not listed. */
  history: string[];
}

type SearchParamsLike = URLSearchParams | Record<string, string | string[] | undefined>;

function entriesOf(params: SearchParamsLike): Array<[string, string]> {
  if (params instanceof URLSearchParams) return [...params.entries()];
  return Object.entries(params).flatMap(([name, value]) =>
    value === undefined ? [] : Array.isArray(value) ? value.map((item): [string, string] => [name, item]) : [[name, value] as [string, string]],
  );
}

export function listStateFrom(params: SearchParamsLike): ListState {
  const query: Record<string, string> = {};
  let history: string[] = [];
  for (const [name, value] of entriesOf(params)) {
    if (name === historyParameter) history = value.split(",").filter(Boolean);
    else query[name] = value;
  }
  return { query: sorted(query), history };
}

export function searchOf(state: ListState): string {
  const search = new URLSearchParams(state.query);
  if (state.history.length > 0) search.set(historyParameter, state.history.join(","));
  return search.toString();
}

export function pageSizeOf(state: ListState): number {
  const size = Number(state.query.page_size);
  return Number.isInteger(size) && size > 0 ? size : defaultPageSize;
}

/** The 1-based number of the first row on this page ("rows 51-100"). */
export function firstRowNumber(state: ListState): number {
  const pagesBefore = state.query.page_cursor ? state.history.length + 1 : 0;
  return pagesBefore * pageSizeOf(state) + 1;
}

/** The page after this one, given the cursor the bank's `page_next` carries. */
const sorted = (query: Record<string, string>) => Object.fromEntries(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function nextPage(state: ListState, cursor: string): ListState {
  const current = state.query.page_cursor;
  return { query: sorted({ ...state.query, page_cursor: cursor }), history: current ? [...state.history, current] : state.history };
}

function withoutCursor(query: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([name]) => name !== "page_cursor"));
}

export function previousPage(state: ListState): ListState {
  const query = withoutCursor(state.query);
  const history = [...state.history];
  const cursor = history.pop();
  return { query: sorted(cursor ? { ...query, page_cursor: cursor } : query), history };
}

export function hasPreviousPage(state: ListState): boolean {
  return Boolean(state.query.page_cursor);
}

/** Changing a filter or the page size starts again at the first page. */
export function withQuery(state: ListState, changes: Record<string, string | undefined>): ListState {
  const query = withoutCursor(state.query);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === "") delete query[name];
    else query[name] = value;
  }
  return listStateFrom(query);
}

/** The page-next cursor from the URL the bank (through the console) gives for the next page. */
export function cursorOf(pageNext: string | undefined): string | undefined {
  if (!pageNext) return undefined;
  return new URL(pageNext, "http://console.invalid").searchParams.get("page_cursor") ?? undefined;
}
