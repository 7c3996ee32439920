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

// Formatting happens in SQL so the hot path in JS is only string joining: PostgreSQL prints numeric(20,2) with
// exactly two decimals (never via a float) and to_char gives the API's exact timestamp and date forms.
const renderers: Record<FieldKind, (column: string) => string> = {
  text: (c) => c,
  json: (c) => c,
  boolean: (c) => c,
  integer: (c) => c,
  money: (c) => `${c}::text`,
  timestamp: (c) => `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
  date: (c) => `to_char(${c}, 'YYYY-MM-DD')`,
  null: () => "NULL",
};

/** A SQL expression that renders one row as the JSON text of the API object (fields in the given order). */
export function jsonObjectSql(fields: FieldSpec[], tableAlias?: string): string {
  const parts = fields.map((field) => {
    const column = tableAlias ? `${tableAlias}.${quote(field.column ?? field.name)}` : quote(field.column ?? field.name);
    return `'${field.name}', ${renderers[field.kind](column)}`;
  });
  // json_build_object takes at most 100 arguments: objects wider than 50 fields are built in chunks and merged.
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += 50) chunks.push(`jsonb_build_object(${parts.slice(i, i + 50).join(", ")})`);
  return chunks.length === 1 ? `json_build_object(${parts.join(", ")})::text` : `(${chunks.join(" || ")})::text`;
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

/** `YYYY-MM-DDTHH:MM:SSZ` for a Date (JS-side counterpart of the SQL rendering). */
export function formatTimestamp(value: Date): string {
  return `${value.toISOString().slice(0, 19)}Z`;
}

/** `12.50` from integer cents, without floats. */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
