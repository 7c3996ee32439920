/**
 * A list page's state lives in its URL: the bank's own query parameters (filters, `page_size`, `page_cursor`) plus
 * `prev_cursors`, the cursors of the pages already walked through, so "previous" works without OFFSET and a pasted
 * link, a reload or the back button show the same page. Pure functions, shared by the server page and the client list.
 */
export const historyParameter = "prev_cursors";
/** The saved view a list was opened from (lib/views/): its columns apply and its name shows; never sent to the bank. */
export const viewParameter = "view";
export const pageSizes = [25, 50, 100, 250] as const;
/**
 * The console's page size when the URL names none and the person has not chosen one for this list before (then the
 * size they chose last is the default: `rememberedPageSize`). Sent to the bank explicitly (its own default is 100).
 */
export const defaultPageSize = 50;

/** The cookie remembering the page size last chosen on a list (read by the server page, written by the list). */
export const pageSizeCookie = (list: string) => `console-page-size.${list}`;

/** A remembered page size, if it is one of the sizes offered; anything else is ignored. */
export function rememberedPageSize(value: string | undefined): number | undefined {
  const size = Number(value);
  return (pageSizes as readonly number[]).includes(size) ? size : undefined;
}

/**
 * The state as asked of the bank: the URL's own `page_size` wins (the URL is the source of truth); without one, the
 * default given (the remembered size, else `defaultPageSize`).
 */
export function withDefaultPageSize(state: ListState, size: number = defaultPageSize): ListState {
  if (state.query.page_size !== undefined) return state;
  return { ...state, query: sorted({ ...state.query, page_size: String(size) }) };
}

export interface ListState {
  /** What is sent to the bank, keys sorted so the same page always has the same query key. */
  query: Record<string, string>;
  /** Cursors of the pages before the current one, oldest first; the first page has no cursor and is not listed. */
  history: string[];
  /** The saved view the list was opened from, if any. */
  view?: string;
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
  let view: string | undefined;
  for (const [name, value] of entriesOf(params)) {
    if (name === historyParameter) history = value.split(",").filter(Boolean);
    else if (name === viewParameter) view = value || undefined;
    else query[name] = value;
  }
  return view ? { query: sorted(query), history, view } : { query: sorted(query), history };
}

export function searchOf(state: ListState): string {
  const search = new URLSearchParams(state.query);
  if (state.history.length > 0) search.set(historyParameter, state.history.join(","));
  if (state.view) search.set(viewParameter, state.view);
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
  return { ...state, query: sorted({ ...state.query, page_cursor: cursor }), history: current ? [...state.history, current] : state.history };
}

function withoutCursor(query: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([name]) => name !== "page_cursor"));
}

export function previousPage(state: ListState): ListState {
  const query = withoutCursor(state.query);
  const history = [...state.history];
  const cursor = history.pop();
  return { ...state, query: sorted(cursor ? { ...query, page_cursor: cursor } : query), history };
}

export function hasPreviousPage(state: ListState): boolean {
  return Boolean(state.query.page_cursor);
}

/** Changing a filter or the page size starts again at the first page (still in the saved view it was opened from). */
export function withQuery(state: ListState, changes: Record<string, string | undefined>): ListState {
  const query = withoutCursor(state.query);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === "") delete query[name];
    else query[name] = value;
  }
  const next = listStateFrom(query);
  return state.view ? { ...next, view: state.view } : next;
}

/** The list as it is, no longer in a saved view (its columns revert to the user's own choice). */
export function withoutView(state: ListState): ListState {
  return { query: state.query, history: state.history };
}
