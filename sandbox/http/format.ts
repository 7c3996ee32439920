import type { PgTable } from "drizzle-orm/pg-core";
import { getTableColumns, getTableName } from "drizzle-orm";
import type { z } from "zod";

/** How a column becomes a JSON value in a response. */
export type FieldKind = "text" | "money" | "timestamp" | "date" | "json" | "boolean" | "integer" | "null";

export interface FieldSpec {
  /** The API field name. */
  name: string;
  kind: FieldKind;
  /** The SQL column; defaults to the field name. */
  column?: string;
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * How a list or get reads rows and renders each as the JSON text of the API object. Rows are read as PostgreSQL's
 * text (`rawText`, `rowMode: "array"`) and rendered in JS: formatting in SQL (json_build_object, to_char) costs more
 * database time than the whole query, and with the embedded PGlite the database is one thread shared by everyone.
 * Money is numeric(20,2)'s own text (always two decimals, never a float); timestamps and dates are cut from
 * PostgreSQL's ISO output, with the session in UTC (see sandbox/db) and a general path for any other offset.
 */
export interface RowFormat {
  /** The SELECT list, one column per field, in the contract's order. */
  columns: string;
  render(row: ReadonlyArray<string | null>): string;
}

/** Makes node-postgres hand back every value as PostgreSQL's text, unparsed (for RowFormat.render). */
export const rawText = { getTypeParser: () => (value: string) => value };

const renderers: Record<FieldKind, (value: string | null) => string> = {
  text: (value) => (value === null ? "null" : JSON.stringify(value)),
  money: (value) => (value === null ? "null" : `"${value}"`),
  date: (value) => (value === null ? "null" : `"${value}"`),
  timestamp: (value) => (value === null ? "null" : `"${timestampText(value)}"`),
  json: (value) => value ?? "null",
  boolean: (value) => (value === null ? "null" : value === "t" ? "true" : "false"),
  integer: (value) => value ?? "null",
  null: () => "null",
};

/** `YYYY-MM-DDTHH:MM:SSZ` from PostgreSQL's timestamptz text (`2026-11-21 23:53:58[.123456]+00`). */
export function timestampText(value: string): string {
  if (value.endsWith("+00")) return `${value.slice(0, 10)}T${value.slice(11, 19)}Z`;
  // Another session time zone: let Date apply the offset (PostgreSQL prints `-05` or `+05:30`).
  const iso = value.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00");
  return `${new Date(iso).toISOString().slice(0, 19)}Z`;
}

export function rowFormat(fields: FieldSpec[]): RowFormat {
  const columns = fields.map((field) => (field.kind === "null" ? "NULL" : quote(field.column ?? field.name))).join(", ");
  const keys = fields.map((field) => `${JSON.stringify(field.name)}:`);
  const render = fields.map((field) => renderers[field.kind]);
  return {
    columns,
    render(row) {
      let json = "{";
      for (let i = 0; i < keys.length; i++) json += (i === 0 ? "" : ",") + keys[i] + render[i]!(row[i] ?? null);
      return `${json}}`;
    },
  };
}

const kindOfColumnType: Record<string, FieldKind> = {
  PgText: "text",
  PgNumeric: "money",
  PgTimestamp: "timestamp",
  PgTimestampString: "timestamp",
  PgDateString: "date",
  PgDate: "date",
  PgJsonb: "json",
  PgBoolean: "boolean",
  PgInteger: "integer",
};

/**
 * The fields of a resource: every field of its contract schema, in the contract's order, with the kind of the
 * table column of the same name. Throws at start-up when the contract names a field the table lacks.
 */
export function resourceFields(table: PgTable, schema: z.ZodObject): FieldSpec[] {
  const columns = getTableColumns(table);
  return Object.keys(schema.shape).map((name) => {
    const column = columns[name];
    if (!column) throw new Error(`table ${getTableName(table)} has no column for contract field ${name}`);
    const kind = kindOfColumnType[column.columnType];
    if (!kind) throw new Error(`column ${name} has a type (${column.columnType}) the API cannot format`);
    return { name, kind };
  });
}
