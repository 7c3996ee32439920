import type pg from "pg";
import { badRequest } from "./errors";
import { rawText, type RowFormat } from "./format";

/** The pagination parameters after validation (see lib/contract paginationQuery). */
export interface PageQuery {
  page_cursor?: string;
  page_size: number;
  from_date?: string;
  to_date?: string;
}

/** Where a list reads from. Every list route, including the webhook routes, pages through this. */
export interface ListSource {
  /** Schema-qualified, quoted table name: `"sandbox"."ach"`. */
  table: string;
  /** The columns read and how a row becomes the API object's JSON text (see rowFormat). */
  format: RowFormat;
  /**
   * Query parameter → the column it filters on: by equality (PostgreSQL infers the parameter's type from the column),
   * or `{ suffixOf }`: the column's text ends with the value (see suffixCondition).
   */
  filters: Record<string, string | { suffixOf: string; length: number }>;
  /** Columns ordering the list; each table has an index on (created_at, id). Defaults: created_at, id. */
  createdAtColumn?: string;
  idColumn?: string;
}

/** SQL text per list source and combination of conditions, built once. */
const sqlCache = new WeakMap<ListSource, Map<string, string>>();

/**
 * One page of a list, newest first, as the JSON text of `{data, page_next?}`.
 *
 * Keyset pagination: the page after the cursor is `(created_at, id) < (cursor's created_at, cursor's id)`, written
 * as a row comparison so PostgreSQL seeks the (created_at, id) or (filter, created_at, id) index; a page deep in a
 * million rows costs what the first one does. No OFFSET, no COUNT: page_size + 1 rows are read, and the extra row
 * only says that a next page exists. An unknown cursor is found out only when the page comes back empty (one extra
 * lookup in that case alone).
 *
 * `fixed` adds equality conditions that are not query parameters (e.g. the webhook whose deliveries are listed).
 * `pageUrl` is the list's full URL without query; page_next is it plus every given parameter and the next cursor.
 */
export async function listPage(
  pool: pg.Pool,
  source: ListSource,
  query: PageQuery & Record<string, unknown>,
  raw: Record<string, string>,
  pageUrl: string,
  fixed: Record<string, string> = {},
): Promise<string> {
  const created = source.createdAtColumn ?? "created_at";
  const id = source.idColumn ?? "id";
  const conditions: string[] = [];
  const values: unknown[] = [];
  const key: string[] = [];
  const add = (condition: (placeholder: string) => string, value: unknown, name: string) => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
    key.push(name);
  };
  for (const [column, value] of Object.entries(fixed)) add((p) => `"${column}" = ${p}`, value, `fixed:${column}`);
  for (const [name, filter] of Object.entries(source.filters)) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof filter === "string") add((p) => `"${filter}" = ${p}`, value, name);
    else if (String(value).length === filter.length) add((p) => `"${filter.suffixOf}" = ${p}`, value, `${name}:whole`);
    else add((p) => `reverse("${filter.suffixOf}") LIKE ${p}`, `${[...String(value)].reverse().join("")}%`, name);
  }
  if (query.from_date) add((p) => `"${created}" >= ${p}::timestamptz`, `${query.from_date}T00:00:00Z`, "from");
  if (query.to_date) add((p) => `"${created}" < ${p}::timestamptz`, `${query.to_date}T00:00:00Z`, "to");
  if (query.page_cursor) {
    add((p) => `("${created}", "${id}") < (SELECT "${created}", "${id}" FROM ${source.table} WHERE "${id}" = ${p})`, query.page_cursor, "cursor");
  }
  values.push(query.page_size + 1);
  const cacheKey = key.join("\u0000");
  let cache = sqlCache.get(source);
  if (!cache) sqlCache.set(source, (cache = new Map()));
  let text = cache.get(cacheKey);
  if (!text) {
    const where = conditions.length ? ` WHERE ${conditions.join(" AND ")}` : "";
    // The id comes last: render() reads the object's columns by position and ignores it.
    text = `SELECT ${source.format.columns}, "${id}" FROM ${source.table}${where} ORDER BY "${created}" DESC, "${id}" DESC LIMIT $${values.length}`;
    cache.set(cacheKey, text);
  }
  const { rows } = await pool.query<string[]>({ text, values, rowMode: "array", types: rawText });
  if (rows.length === 0 && query.page_cursor) await assertCursorExists(pool, source, query.page_cursor);
  const more = rows.length > query.page_size;
  if (more) rows.pop();
  let body = '{"data":[';
  for (let i = 0; i < rows.length; i++) body += (i === 0 ? "" : ",") + source.format.render(rows[i]!);
  body += "]";
  if (more) {
    const last = rows[rows.length - 1]!;
    body += `,"page_next":${JSON.stringify(nextPageUrl(pageUrl, raw, last[last.length - 1]!))}`;
  }
  return `${body}}`;
}

/** One object of a source as its JSON text, or undefined when no row has that id. */
export async function objectJson(pool: pg.Pool, source: ListSource, id: string): Promise<string | undefined> {
  const { rows } = await pool.query<string[]>({
    text: `SELECT ${source.format.columns} FROM ${source.table} WHERE "${source.idColumn ?? "id"}" = $1`,
    values: [id],
    rowMode: "array",
    types: rawText,
  });
  return rows[0] && source.format.render(rows[0]);
}

async function assertCursorExists(pool: pg.Pool, source: ListSource, cursor: string): Promise<void> {
  const id = source.idColumn ?? "id";
  const { rowCount } = await pool.query({ text: `SELECT 1 FROM ${source.table} WHERE "${id}" = $1`, values: [cursor] });
  if (!rowCount) throw badRequest(`page_cursor ${cursor} is not the id of an object in this list`);
}

/** The URL of the next page: every parameter given (as given) with page_cursor replaced by the last id. */
export function nextPageUrl(pageUrl: string, raw: Record<string, string>, lastId: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) if (name !== "page_cursor") params.append(name, value);
  params.append("page_cursor", lastId);
  return `${pageUrl}?${params.toString()}`;
}
