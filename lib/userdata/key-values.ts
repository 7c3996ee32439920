/**
 * The userdata editor's key/value form: the top-level keys of the userdata object as rows a person edits without
 * writing JSON. A value is text (saved as a JSON string, as typed) or, for numbers, true/false, null, lists and
 * nested objects, a JSON value. The JSON editor and this form edit the same draft: the rows are read from it and
 * written back to it (lib/userdata/check.ts then checks the object as for the JSON editor). Client-safe.
 */

export type ValueKind = "text" | "json";

export interface KeyValueRow {
  key: string;
  value: string;
  kind: ValueKind;
}

/** The rows of a userdata object, in its keys' order: strings as text, anything else as its JSON. */
export function rowsOf(userdata: Record<string, unknown>): KeyValueRow[] {
  return Object.entries(userdata).map(([key, value]) =>
    typeof value === "string" ? { key, value, kind: "text" } : { key, value: JSON.stringify(value), kind: "json" },
  );
}

export type RowsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; problems: Array<{ row: number; problem: string }> };

/** The object the rows make, or each row's problem in words (an empty or repeated key, a JSON value that is not JSON). */
export function objectOf(rows: KeyValueRow[]): RowsCheck {
  const problems: Array<{ row: number; problem: string }> = [];
  const value: Record<string, unknown> = {};
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const key = row.key.trim();
    if (key === "") return void problems.push({ row: index, problem: "A key needs a name." });
    if (seen.has(key)) return void problems.push({ row: index, problem: `The key ${key} is there twice.` });
    seen.add(key);
    if (row.kind === "text") {
      // A key named like an object's own machinery stays a plain key (never a prototype).
      Object.defineProperty(value, key, { value: row.value, enumerable: true, writable: true, configurable: true });
      return;
    }
    try {
      Object.defineProperty(value, key, { value: JSON.parse(row.value), enumerable: true, writable: true, configurable: true });
    } catch {
      problems.push({ row: index, problem: `The value of ${key} is not JSON: write 42, true, null, ["a"] or {"a": 1}, or choose Text.` });
    }
  });
  return problems.length ? { ok: false, problems } : { ok: true, value };
}

/** The object a JSON text holds, whatever its size, or null when it is not valid JSON of an object. */
export function objectIn(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
