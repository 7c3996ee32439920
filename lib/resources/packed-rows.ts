/**
 * A list page's first rows as they travel in the page's hydration payload: the field names once and each row as the
 * values in their order, in place of 50 objects repeating the same dozen names. The rows go to the browser twice, as
 * HTML and as this payload, and the names were about 8 KiB of the ACH list's 50-row HTML (docs/benchmarks.md, pages).
 * A field a row lacks travels as `undefined` and is left out again when unpacked: the rows come back exactly as given.
 */
export interface PackedRows {
  fields: string[];
  rows: unknown[][];
}

/** Where a page's packed rows are, in place of its `data`. */
export const packedField = "packed_rows";

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);

export function packRows(rows: Record<string, unknown>[]): PackedRows {
  const fields = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return { fields, rows: rows.map((row) => fields.map((field) => (Object.hasOwn(row, field) ? row[field] : undefined))) };
}

export function unpackRows({ fields, rows }: PackedRows): Record<string, unknown>[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    fields.forEach((field, index) => {
      if (values[index] !== undefined) row[field] = values[index];
    });
    return row;
  });
}

/** A list page (`{data: [...], ...}`) with its rows packed; anything else (an error, rows that are not objects) as it is. */
export function packPage(page: unknown): unknown {
  if (!isRecord(page) || !Array.isArray(page.data) || !page.data.every(isRecord)) return page;
  const { data, ...rest } = page;
  return { ...rest, [packedField]: packRows(data as Record<string, unknown>[]) };
}

/** The page as it was before `packPage`. */
export function unpackPage(page: unknown): unknown {
  if (!isRecord(page) || !isRecord(page[packedField])) return page;
  const { [packedField]: packed, ...rest } = page;
  return { ...rest, data: unpackRows(packed as unknown as PackedRows) };
}
